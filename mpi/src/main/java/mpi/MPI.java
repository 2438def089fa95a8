package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.jhpvm.fm.FmClock;
import org.jhpvm.mpi.internal.ErrorClasses;
import org.jhpvm.mpi.internal.Kind;

/**
 * MPI's environment, constants and predefined objects, as the Open MPI Java bindings name them. The constants
 * have Open MPI's values (from its {@code mpi.h}) and here are also compile-time constants.
 * <p>
 * Each rank of a job is a thread ({@code MpiJob}, {@code bin/jhpvm run}); {@link #COMM_WORLD} and
 * {@link #COMM_SELF} are shared objects that stand for the calling rank's own communicators.
 */
public final class MPI {
    // ---------------------------------------------------------------------------------------------- wildcards
    /** Receive from any source. */
    public static final int ANY_SOURCE = -1;
    /** Receive any tag. */
    public static final int ANY_TAG = -1;
    /** The null process: operations with it complete at once and move nothing. */
    public static final int PROC_NULL = -2;
    /** The root of an inter-communicator collective (not used here). */
    public static final int ROOT = -4;
    /** An undefined count, rank, colour or index. */
    public static final int UNDEFINED = -32766;

    // ---------------------------------------------------------------------------------------------- comparisons
    /** The same object. */
    public static final int IDENT = 0;
    /** The same members in the same order, another context. */
    public static final int CONGRUENT = 1;
    /** The same members in another order. */
    public static final int SIMILAR = 2;
    /** Different members. */
    public static final int UNEQUAL = 3;

    // ---------------------------------------------------------------------------------------------- threads
    /** Only one thread. */
    public static final int THREAD_SINGLE = 0;
    /** Only the rank's main thread calls MPI (what jhpvm provides). */
    public static final int THREAD_FUNNELED = 1;
    /** Any thread, one at a time. */
    public static final int THREAD_SERIALIZED = 2;
    /** Any thread, at once. */
    public static final int THREAD_MULTIPLE = 3;

    // ---------------------------------------------------------------------------------------------- topologies
    /** A Cartesian topology. */
    public static final int CART = 1;
    /** A graph topology. */
    public static final int GRAPH = 2;
    /** A distributed graph topology. */
    public static final int DIST_GRAPH = 3;
    /** Array order: the last index varies fastest. */
    public static final int ORDER_C = 0;
    /** Array order: the first index varies fastest. */
    public static final int ORDER_FORTRAN = 1;

    // ---------------------------------------------------------------------------------------------- attributes
    /** Attribute key: the largest tag. */
    public static final int TAG_UB = 0;
    /** Attribute key: the host rank. */
    public static final int HOST = 1;
    /** Attribute key: the rank that may do I/O. */
    public static final int IO = 2;
    /** Attribute key: whether {@link #wtime()} is synchronized across ranks. */
    public static final int WTIME_IS_GLOBAL = 3;
    /** Attribute keys: the ranks the job may have (its size), the program's number (0), the last error code. */
    public static final int UNIVERSE_SIZE = 4;
    /** See {@link #UNIVERSE_SIZE}. */
    public static final int APPNUM = 5;
    /** See {@link #UNIVERSE_SIZE}. */
    public static final int LASTUSEDCODE = 6;
    /** The null info object. */
    public static final Info INFO_NULL = Info.nullInfo();
    /** MPI version implemented. */
    public static final int VERSION = 3;
    /** MPI subversion implemented. */
    public static final int SUBVERSION = 1;

    // ---------------------------------------------------------------------------------------------- errors
    /** No error. */
    public static final int SUCCESS = ErrorClasses.SUCCESS;
    /** Invalid buffer. */
    public static final int ERR_BUFFER = 1;
    /** Invalid count. */
    public static final int ERR_COUNT = 2;
    /** Invalid datatype. */
    public static final int ERR_TYPE = ErrorClasses.ERR_TYPE;
    /** Invalid tag. */
    public static final int ERR_TAG = 4;
    /** Invalid communicator. */
    public static final int ERR_COMM = 5;
    /** Invalid rank. */
    public static final int ERR_RANK = 6;
    /** Invalid request. */
    public static final int ERR_REQUEST = 7;
    /** Invalid root. */
    public static final int ERR_ROOT = 8;
    /** Invalid group. */
    public static final int ERR_GROUP = 9;
    /** Invalid operation. */
    public static final int ERR_OP = 10;
    /** Invalid topology. */
    public static final int ERR_TOPOLOGY = 11;
    /** Invalid dimensions. */
    public static final int ERR_DIMS = 12;
    /** Invalid argument. */
    public static final int ERR_ARG = 13;
    /** Unknown error. */
    public static final int ERR_UNKNOWN = 14;
    /** Message truncated on receive. */
    public static final int ERR_TRUNCATE = ErrorClasses.ERR_TRUNCATE;
    /** Other error. */
    public static final int ERR_OTHER = ErrorClasses.ERR_OTHER;
    /** Internal error. */
    public static final int ERR_INTERN = 17;
    /** Error code in the statuses. */
    public static final int ERR_IN_STATUS = 18;
    /** Pending request. */
    public static final int ERR_PENDING = 19;
    /** Invalid info key, key not set, invalid info value, invalid info object, invalid attribute key. */
    public static final int ERR_INFO_KEY = 31;
    /** See {@link #ERR_INFO_KEY}. */
    public static final int ERR_INFO_NOKEY = 32;
    /** See {@link #ERR_INFO_KEY}. */
    public static final int ERR_INFO_VALUE = 33;
    /** See {@link #ERR_INFO_KEY}. */
    public static final int ERR_INFO = 34;
    /** See {@link #ERR_INFO_KEY}. */
    public static final int ERR_KEYVAL = 36;
    /** The last error class. */
    public static final int ERR_LASTCODE = 92;

    /** Bytes a buffered send takes in the attached buffer beyond its data. */
    public static final int BSEND_OVERHEAD = 128;

    /** The largest tag ({@code MPI_TAG_UB}'s value). */
    static final int TAG_UB_VALUE = Integer.MAX_VALUE;
    /** The longest message in bytes. */
    static final long MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 64;

    // ---------------------------------------------------------------------------------------------- objects
    /** Every rank of the job. */
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD);
    /** The calling rank alone. */
    public static final Intracomm COMM_SELF = new Intracomm(Comm.SELF);
    /** Errors end the job (every communicator's default). */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    /** Errors are thrown as {@link MPIException}. */
    public static final Errhandler ERRORS_RETURN = new Errhandler(false);
    /** The null request. */
    public static final Request REQUEST_NULL = new Request(null, (org.jhpvm.mpi.internal.Pending) null);
    /** The empty group. */
    public static final Group GROUP_EMPTY = new Group(new int[0], -1);

    /** {@code byte}. */
    public static final Datatype BYTE = Datatype.basic(Kind.BYTE, "MPI_BYTE");
    /** {@code char} (2 bytes). */
    public static final Datatype CHAR = Datatype.basic(Kind.CHAR, "MPI_CHAR");
    /** {@code short}. */
    public static final Datatype SHORT = Datatype.basic(Kind.SHORT, "MPI_SHORT");
    /** {@code boolean}. */
    public static final Datatype BOOLEAN = Datatype.basic(Kind.BOOLEAN, "MPI_BOOLEAN");
    /** {@code int}. */
    public static final Datatype INT = Datatype.basic(Kind.INT, "MPI_INT");
    /** {@code long}. */
    public static final Datatype LONG = Datatype.basic(Kind.LONG, "MPI_LONG");
    /** {@code float}. */
    public static final Datatype FLOAT = Datatype.basic(Kind.FLOAT, "MPI_FLOAT");
    /** {@code double}. */
    public static final Datatype DOUBLE = Datatype.basic(Kind.DOUBLE, "MPI_DOUBLE");
    /** Packed bytes. */
    public static final Datatype PACKED = Datatype.basic(Kind.BYTE, "MPI_PACKED");

    /** MINLOC/MAXLOC pairs of two {@code int}s (value, index). */
    public static final Datatype INT2 = Datatype.pair(Kind.INT, "MPI_2INT");
    /** MINLOC/MAXLOC pairs of a {@code short} value and an {@code int} index. */
    public static final Datatype SHORT_INT = Datatype.pair(Kind.SHORT, "MPI_SHORT_INT");
    /** MINLOC/MAXLOC pairs of a {@code long} value and an {@code int} index. */
    public static final Datatype LONG_INT = Datatype.pair(Kind.LONG, "MPI_LONG_INT");
    /** MINLOC/MAXLOC pairs of a {@code float} value and an {@code int} index. */
    public static final Datatype FLOAT_INT = Datatype.pair(Kind.FLOAT, "MPI_FLOAT_INT");
    /** MINLOC/MAXLOC pairs of a {@code double} value and an {@code int} index. */
    public static final Datatype DOUBLE_INT = Datatype.pair(Kind.DOUBLE, "MPI_DOUBLE_INT");
    /** C's {@code float _Complex}: pairs of FLOAT (real, imaginary); SUM and PROD are complex. */
    public static final Datatype FLOAT_COMPLEX = Datatype.complex(Kind.FLOAT, "MPI_C_FLOAT_COMPLEX");
    /** C's {@code double _Complex}: pairs of DOUBLE. */
    public static final Datatype DOUBLE_COMPLEX = Datatype.complex(Kind.DOUBLE, "MPI_C_DOUBLE_COMPLEX");
    /** Access to {@link #INT2} items in byte buffers. */
    public static final Int2 int2 = new Int2(INT2);
    /** Access to {@link #SHORT_INT} items. */
    public static final ShortInt shortInt = new ShortInt(SHORT_INT);
    /** Access to {@link #LONG_INT} items. */
    public static final LongInt longInt = new LongInt(LONG_INT);
    /** Access to {@link #FLOAT_INT} items. */
    public static final FloatInt floatInt = new FloatInt(FLOAT_INT);
    /** Access to {@link #DOUBLE_INT} items. */
    public static final DoubleInt doubleInt = new DoubleInt(DOUBLE_INT);

    /** Maximum. */
    public static final Op MAX = new Op(Op.MAX);
    /** Minimum. */
    public static final Op MIN = new Op(Op.MIN);
    /** Sum. */
    public static final Op SUM = new Op(Op.SUM);
    /** Product. */
    public static final Op PROD = new Op(Op.PROD);
    /** Logical and. */
    public static final Op LAND = new Op(Op.LAND);
    /** Bitwise and. */
    public static final Op BAND = new Op(Op.BAND);
    /** Logical or. */
    public static final Op LOR = new Op(Op.LOR);
    /** Bitwise or. */
    public static final Op BOR = new Op(Op.BOR);
    /** Logical exclusive or. */
    public static final Op LXOR = new Op(Op.LXOR);
    /** Bitwise exclusive or. */
    public static final Op BXOR = new Op(Op.BXOR);
    /** Minimum and its location, on the pair types ({@link #DOUBLE_INT}, ...); ties take the smaller index. */
    public static final Op MINLOC = new Op(Op.MINLOC);
    /** Maximum and its location, on the pair types; ties take the smaller index. */
    public static final Op MAXLOC = new Op(Op.MAXLOC);
    /** The second operand replaces the first. */
    public static final Op REPLACE = new Op(Op.REPLACE);
    /** No operation. */
    public static final Op NO_OP = new Op(Op.NO_OP);

    private static final long EPOCH_NS = System.nanoTime();

    private MPI() {
    }

    /**
     * {@code MPI_Init}: starts MPI on the calling rank.
     *
     * @param args the program's arguments
     * @return the arguments (none are MPI's own here)
     * @throws MPIException if the thread is not a rank of an MPI job, or MPI was initialized already
     */
    public static String[] Init(final String[] args) throws MPIException {
        InitThread(args, THREAD_FUNNELED);
        return args;
    }

    /**
     * {@code MPI_Init_thread}.
     *
     * @param args     the program's arguments
     * @param required the thread level asked for
     * @return the level provided: {@link #THREAD_FUNNELED} at most (the rank's own thread calls MPI)
     * @throws MPIException as {@link #Init}
     */
    public static int InitThread(final String[] args, final int required) throws MPIException {
        return Rank.init(required);
    }

    /**
     * {@code MPI_Query_thread}.
     *
     * @return the level {@link #InitThread} provided
     * @throws MPIException if MPI is not active
     */
    public static int queryThread() throws MPIException {
        return Rank.active().threadLevel;
    }

    /**
     * {@code MPI_Is_thread_main}.
     *
     * @return true on the rank's main thread (threads it starts inherit the rank, and are not main)
     * @throws MPIException if MPI is not active
     */
    public static boolean isThreadMain() throws MPIException {
        Rank.active();
        return !Thread.currentThread().isVirtual();
    }

    /**
     * {@code MPI_Finalize} (collective over the world): waits for every rank, then ends MPI on this one.
     *
     * @throws MPIException if MPI is not active
     */
    public static void Finalize() throws MPIException {
        Rank.active().finish();
    }

    /**
     * Whether {@link #Init} has been called on this rank.
     *
     * @return true after Init (also after Finalize)
     */
    public static boolean isInitialized() {
        final Rank r = Rank.ofThread();
        return r != null && r.initialized;
    }

    /**
     * Whether {@link #Finalize} has been called on this rank.
     *
     * @return true after Finalize
     */
    public static boolean isFinalized() {
        final Rank r = Rank.ofThread();
        return r != null && r.finalized;
    }

    /**
     * {@code MPI_Buffer_attach}: the space buffered sends ({@code bSend}) may take while in flight: each takes its
     * data's bytes plus {@link #BSEND_OVERHEAD}. jhpvm keeps the copies in arrays of its own and uses the buffer's
     * size only, so its contents are left alone.
     *
     * @param buffer the buffer
     * @throws MPIException {@code ERR_BUFFER} if a buffer is attached already or {@code buffer} is null
     */
    public static void attachBuffer(final byte[] buffer) throws MPIException {
        final Rank r = Rank.active();
        if (buffer == null || r.attached != null) {
            throw r.world.error(ERR_BUFFER, buffer == null ? "attachBuffer: null buffer"
                : "attachBuffer: a buffer is attached already (detach it first)");
        }
        r.attached = buffer;
        r.attachedUsed = 0;
    }

    /**
     * {@code MPI_Buffer_detach}: waits until every buffered send has gone, then gives the buffer back.
     *
     * @return the buffer attached
     * @throws MPIException {@code ERR_BUFFER} if none is attached
     */
    public static byte[] detachBuffer() throws MPIException {
        final Rank r = Rank.active();
        if (r.attached == null) {
            throw r.world.error(ERR_BUFFER, "detachBuffer: no buffer is attached");
        }
        r.drainBuffered();
        final byte[] b = r.attached;
        r.attached = null;
        return b;
    }

    /**
     * {@code MPI_Wtime}: seconds since a fixed point (the same for every rank of one JVM). In a job on a virtual-time
     * fabric ({@code fabric.clock=virtual}) it is the modelled machine's time, the calling rank's own clock
     * (seconds since the job began).
     *
     * @return seconds
     */
    public static double wtime() {
        return FmClock.isVirtual() ? FmClock.nanoTime() * 1e-9 : (System.nanoTime() - EPOCH_NS) * 1e-9;
    }

    /**
     * {@code MPI_Wtick}: the resolution of {@link #wtime()}.
     *
     * @return seconds (one nanosecond)
     */
    public static double wtick() {
        return 1e-9;
    }

    /**
     * {@code MPI_Get_processor_name}: this host's name, as Open MPI gives it (ranks on one host share it).
     *
     * @return the host name
     * @throws MPIException if MPI is not active
     */
    public static String getProcessorName() throws MPIException {
        Rank.active();
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /**
     * {@code MPI_Get_version}.
     *
     * @return {@link #VERSION} and {@link #SUBVERSION}
     */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /**
     * {@code MPI_Get_library_version}.
     *
     * @return the library's name and version
     */
    public static String getLibVersion() {
        return "jhpvm MPI-FM (MPI " + VERSION + "." + SUBVERSION + " over Fast Messages, the Open MPI Java bindings' "
            + "API)";
    }

    /**
     * {@code MPI_Pcontrol}: profiling control; there is no profiling layer here, so the call only checks MPI is
     * active.
     *
     * @param level the profiling level
     * @param obj   profiler-specific data
     * @throws MPIException if MPI is not active
     */
    public static void pControl(final int level, final Object obj) throws MPIException {
        Rank.active();
    }

    // ---------------------------------------------------------------------------------------------- buffers

    /**
     * A direct byte buffer in native order.
     *
     * @param capacity bytes
     * @return the buffer
     */
    public static ByteBuffer newByteBuffer(final int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    /**
     * A direct char buffer.
     *
     * @param capacity chars
     * @return the buffer
     */
    public static CharBuffer newCharBuffer(final int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    /**
     * A direct short buffer.
     *
     * @param capacity shorts
     * @return the buffer
     */
    public static ShortBuffer newShortBuffer(final int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    /**
     * A direct int buffer.
     *
     * @param capacity ints
     * @return the buffer
     */
    public static IntBuffer newIntBuffer(final int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    /**
     * A direct long buffer.
     *
     * @param capacity longs
     * @return the buffer
     */
    public static LongBuffer newLongBuffer(final int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    /**
     * A direct float buffer.
     *
     * @param capacity floats
     * @return the buffer
     */
    public static FloatBuffer newFloatBuffer(final int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    /**
     * A direct double buffer.
     *
     * @param capacity doubles
     * @return the buffer
     */
    public static DoubleBuffer newDoubleBuffer(final int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /**
     * The buffer from element {@code offset} on ({@code &buf[offset]} in C).
     *
     * @param buf    a buffer
     * @param offset the first element
     * @return a buffer sharing its content from {@code offset}
     */
    public static ByteBuffer slice(final ByteBuffer buf, final int offset) {
        final ByteBuffer s = buf.duplicate().clear().position(offset).slice().order(buf.order());
        Slices.record(s, buf, offset);
        return s;
    }

    /**
     * The buffer from element {@code offset} on.
     *
     * @param buf    a buffer
     * @param offset the first element
     * @return a buffer sharing its content from {@code offset}
     */
    public static DoubleBuffer slice(final DoubleBuffer buf, final int offset) {
        final DoubleBuffer s = buf.duplicate().clear().position(offset).slice();
        Slices.record(s, buf, 8L * offset);
        return s;
    }

    /**
     * The buffer from element {@code offset} on.
     *
     * @param buf    a buffer
     * @param offset the first element
     * @return a buffer sharing its content from {@code offset}
     */
    public static IntBuffer slice(final IntBuffer buf, final int offset) {
        final IntBuffer s = buf.duplicate().clear().position(offset).slice();
        Slices.record(s, buf, 4L * offset);
        return s;
    }

    /**
     * The buffer from element {@code offset} on.
     *
     * @param buf    a buffer
     * @param offset the first element
     * @return a buffer sharing its content from {@code offset}
     */
    public static LongBuffer slice(final LongBuffer buf, final int offset) {
        final LongBuffer s = buf.duplicate().clear().position(offset).slice();
        Slices.record(s, buf, 8L * offset);
        return s;
    }

    /**
     * The array from element {@code offset} on, as a heap buffer that calls use in place.
     *
     * @param buf    an array
     * @param offset the first element
     * @return the buffer
     */
    public static DoubleBuffer slice(final double[] buf, final int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The array from element {@code offset} on.
     *
     * @param buf    an array
     * @param offset the first element
     * @return the buffer
     */
    public static IntBuffer slice(final int[] buf, final int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The array from element {@code offset} on.
     *
     * @param buf    an array
     * @param offset the first element
     * @return the buffer
     */
    public static LongBuffer slice(final long[] buf, final int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The array from element {@code offset} on.
     *
     * @param buf    an array
     * @param offset the first element
     * @return the buffer
     */
    public static FloatBuffer slice(final float[] buf, final int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The array from element {@code offset} on.
     *
     * @param buf    an array
     * @param offset the first element
     * @return the buffer
     */
    public static ByteBuffer slice(final byte[] buf, final int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
