package mpi;

import java.util.ArrayList;
import java.util.List;

import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * An MPI datatype: a basic type ({@code MPI.INT}, {@code MPI.DOUBLE}, ...) or one derived from another with the
 * {@code create*} methods, which must be {@link #commit() committed} before use. Every datatype is made of elements
 * of one basic type (its base), and lower bounds, extents and sizes are counted in those elements, as in the Open MPI
 * Java bindings. Byte displacements ({@link #createHVector}, {@link #createHIndexed}) must be whole elements.
 * <p>
 * Derived types are kept as runs of elements (offset, length), so sending one gathers the runs straight from the
 * array into FM's frames and receiving scatters them back, with no packing copy.
 */
public final class Datatype implements Freeable, Cloneable {
    final TypeMap map;
    /** The layout of a MINLOC/MAXLOC pair type, else null. */
    final Pair pair;
    private final boolean predefined;
    private boolean committed;
    private boolean freed;
    private String name;
    /** The alignment a C compiler gives the type in a struct, in bytes (a struct's extent is rounded up to it). */
    final int align;
    /** The basic elements of one item ({@code MPI_Get_elements} counts them). */
    Signature sig;
    /** {@code FLOAT_COMPLEX} and {@code DOUBLE_COMPLEX}: pairs (real, imaginary) that PROD multiplies as complex. */
    boolean complex;

    private Datatype(final TypeMap map, final boolean predefined, final String name) {
        this(map, null, predefined, name, map.kind().bytes);
    }

    private Datatype(final TypeMap map, final Pair pair, final boolean predefined, final String name,
                     final int align) {
        this.map = map;
        this.pair = pair;
        this.predefined = predefined;
        this.committed = predefined;
        this.name = name;
        this.align = align;
        this.sig = Signature.basic(map.kind().bytes);
    }

    /** A type derived from {@code old}: its elements, so its alignment. */
    private static Datatype derived(final TypeMap map, final Datatype old) {
        final Datatype t = new Datatype(map, null, false, null, old.align);
        t.sig = old.sig;
        return t;
    }

    static Datatype basic(final Kind kind, final String name) {
        return new Datatype(TypeMap.basic(kind), true, name);
    }

    /** A complex type: two elements of {@code kind}, the real part first, as C's {@code float _Complex}. */
    static Datatype complex(final Kind kind, final String name) {
        final Datatype t = new Datatype(new TypeMap(kind, new int[] {0}, new int[] {2}, 0, 2), true, name);
        t.complex = true;
        t.sig = Signature.repeat(Signature.basic(kind.bytes), 2);
        return t;
    }

    /** A MINLOC/MAXLOC pair type: bytes of the value and of the index, the struct's padding left out. */
    static Datatype pair(final Kind value, final String name) {
        final Pair p = new Pair(value);
        final TypeMap m = p.indexOffset == value.bytes
            ? new TypeMap(Kind.BYTE, new int[] {0}, new int[] {value.bytes + 4}, 0, p.extent)
            : new TypeMap(Kind.BYTE, new int[] {0, p.indexOffset}, new int[] {value.bytes, 4}, 0, p.extent);
        final Datatype t = new Datatype(m, p, true, name, Math.max(4, value.bytes));
        t.sig = Signature.sequence(new Signature[] {Signature.basic(value.bytes), Signature.basic(4)},
            new long[] {1, 1});
        return t;
    }

    /**
     * {@code MPI_Type_contiguous}: {@code count} copies of {@code oldType} one after another.
     *
     * @param count   copies, at least 0
     * @param oldType the type copied
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_COUNT} if {@code count} is negative, {@code ERR_TYPE} if {@code oldType} is
     *                      freed or null
     */
    public static Datatype createContiguous(final int count, final Datatype oldType) throws MPIException {
        return createVector(count, 1, 1, oldType);
    }

    /**
     * {@code MPI_Type_vector}: {@code count} blocks of {@code blockLength} old items, the blocks {@code stride} old
     * items apart.
     *
     * @param count       blocks
     * @param blockLength old items per block
     * @param stride      old items from one block's start to the next (may be negative)
     * @param oldType     the type the blocks are made of
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_COUNT} if a count or length is negative, {@code ERR_TYPE} for a bad old type
     */
    public static Datatype createVector(final int count, final int blockLength, final int stride,
                                        final Datatype oldType) throws MPIException {
        final int[] lengths = new int[Math.max(count, 0)];
        final int[] displs = new int[lengths.length];
        checkCount(count);
        checkCount(blockLength);
        for (int i = 0; i < count; i++) {
            lengths[i] = blockLength;
            displs[i] = Math.multiplyExact(i, stride);
        }
        return derive(lengths, displs, false, usable(oldType));
    }

    /**
     * {@code MPI_Type_create_hvector}: as {@link #createVector} with the stride in bytes.
     *
     * @param count       blocks
     * @param blockLength old items per block
     * @param stride      bytes from one block's start to the next: a whole number of base elements
     * @param oldType     the type the blocks are made of
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_ARG} if the stride is not whole elements, as {@link #createVector} otherwise
     */
    public static Datatype createHVector(final int count, final int blockLength, final int stride,
                                         final Datatype oldType) throws MPIException {
        final Datatype old = usable(oldType);
        checkCount(count);
        checkCount(blockLength);
        final int[] lengths = new int[count];
        final int[] displs = new int[count];
        final int elements = wholeElements(stride, old);
        for (int i = 0; i < count; i++) {
            lengths[i] = blockLength;
            displs[i] = Math.multiplyExact(i, elements);
        }
        return derive(lengths, displs, true, old);
    }

    /**
     * {@code MPI_Type_indexed}: blocks of the given lengths at the given displacements, both in old items.
     *
     * @param blockLengths  old items per block
     * @param displacements each block's start, in old items
     * @param oldType       the type the blocks are made of
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_ARG} if the arrays differ in length, {@code ERR_COUNT} for a negative length,
     *                      {@code ERR_TYPE} for a bad old type
     */
    public static Datatype createIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException {
        final Datatype old = usable(oldType);
        sameLength(blockLengths, displacements);
        for (final int l : blockLengths) {
            checkCount(l);
        }
        return derive(blockLengths.clone(), displacements.clone(), false, old);
    }

    /**
     * {@code MPI_Type_create_hindexed}: as {@link #createIndexed} with the displacements in bytes.
     *
     * @param blockLengths  old items per block
     * @param displacements each block's start in bytes: whole base elements
     * @param oldType       the type the blocks are made of
     * @return the new (uncommitted) type
     * @throws MPIException as {@link #createIndexed}, and {@code ERR_ARG} for a displacement that is not whole
     *                      elements
     */
    public static Datatype createHIndexed(final int[] blockLengths, final int[] displacements,
                                          final Datatype oldType) throws MPIException {
        final Datatype old = usable(oldType);
        sameLength(blockLengths, displacements);
        final int[] displs = new int[displacements.length];
        for (int i = 0; i < displs.length; i++) {
            checkCount(blockLengths[i]);
            displs[i] = wholeElements(displacements[i], old);
        }
        return derive(blockLengths.clone(), displs, true, old);
    }

    /**
     * {@code MPI_Type_create_struct}, the most general constructor: block i is {@code blockLengths[i]} items of
     * {@code types[i]} at byte {@code displacements[i]}. As in the Open MPI bindings its base type is
     * {@link MPI#BYTE}: items live in byte arrays or byte buffers in the C struct's layout, each member in native
     * byte order. Its lower bound is the lowest block start, and its extent runs to the highest block end rounded up
     * to the largest member alignment (a member's element size, 4 or 8 for the pair types), as a C compiler pads a
     * struct, so that consecutive items line up as in a C array.
     *
     * @param blockLengths  items per block
     * @param displacements each block's start, in bytes
     * @param types         each block's item type
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_ARG} if the arrays differ in length, {@code ERR_COUNT} for a negative length,
     *                      {@code ERR_TYPE} for a null or freed type
     */
    public static Datatype createStruct(final int[] blockLengths, final int[] displacements, final Datatype[] types)
        throws MPIException {
        sameLength(blockLengths, displacements);
        if (types == null || types.length != blockLengths.length) {
            throw new MPIException(MPI.ERR_ARG, "struct: blockLengths, displacements and types must have one length");
        }
        final List<long[]> runs = new ArrayList<>();
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        int align = 1;
        for (int i = 0; i < types.length; i++) {
            final Datatype t = usable(types[i]);
            checkCount(blockLengths[i]);
            final TypeMap m = t.map;
            final int eb = m.kind().bytes;
            align = Math.max(align, t.align);
            for (int k = 0; k < blockLengths[i]; k++) {
                final long origin = displacements[i] + (long) k * m.extent() * eb;
                lb = Math.min(lb, origin + m.lb() * eb);
                ub = Math.max(ub, origin + (m.lb() + m.extent()) * eb);
                for (int j = 0; j < m.displs().length; j++) {
                    final long start = origin + (long) m.displs()[j] * eb;
                    final long bytes = (long) m.lengths()[j] * eb;
                    final long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
                    if (last != null && last[0] + last[1] == start) {
                        last[1] += bytes;
                    } else {
                        runs.add(new long[] {start, bytes});
                    }
                }
            }
        }
        if (runs.isEmpty()) {
            lb = 0;
            ub = 0;
        }
        final long extent = (ub - lb + align - 1) / align * align;
        final int[] d = new int[runs.size()];
        final int[] l = new int[runs.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.toIntExact(runs.get(i)[0]);
            l[i] = Math.toIntExact(runs.get(i)[1]);
        }
        final Datatype t = new Datatype(new TypeMap(Kind.BYTE, d, l, lb, extent), null, false, null, align);
        final Signature[] parts = new Signature[types.length];
        final long[] counts = new long[types.length];
        for (int i = 0; i < types.length; i++) {
            parts[i] = types[i].sig;
            counts[i] = blockLengths[i];
        }
        t.sig = Signature.sequence(parts, counts);
        return t;
    }

    /**
     * {@code MPI_Type_create_resized}: the same elements with another lower bound and extent (in base elements).
     *
     * @param oldType the type
     * @param lb      the new lower bound
     * @param extent  the new extent
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_TYPE} for a bad old type
     */
    public static Datatype createResized(final Datatype oldType, final int lb, final int extent)
        throws MPIException {
        final Datatype old = usable(oldType);
        final TypeMap m = old.map;
        return derived(new TypeMap(m.kind(), m.displs(), m.lengths(), lb, extent), old);
    }

    /**
     * {@code MPI_Type_create_subarray} (not in the Open MPI Java bindings; MPI's C call): the elements of a
     * sub-block of an n-dimensional array of {@code oldType}, for example one face of a 3-D block. The extent is the
     * whole array's, so the type names the sub-block in place.
     *
     * @param sizes    the whole array's extent in each dimension
     * @param subSizes the sub-block's extent in each dimension
     * @param starts   the sub-block's first index in each dimension
     * @param order    {@link MPI#ORDER_C} (last index fastest) or {@link MPI#ORDER_FORTRAN}
     * @param oldType  the array's element type
     * @return the new (uncommitted) type
     * @throws MPIException {@code ERR_ARG} if the arrays differ in length, a size is not positive, or the sub-block
     *                      does not lie in the array; {@code ERR_TYPE} for a bad old type
     */
    public static Datatype createSubarray(final int[] sizes, final int[] subSizes, final int[] starts,
                                          final int order, final Datatype oldType) throws MPIException {
        final Datatype old = usable(oldType);
        final int n = sizes.length;
        if (n < 1 || subSizes.length != n || starts.length != n || (order != MPI.ORDER_C
            && order != MPI.ORDER_FORTRAN)) {
            throw new MPIException(MPI.ERR_ARG, "subarray: sizes, subSizes and starts must have one length >= 1 and "
                + "order be ORDER_C or ORDER_FORTRAN");
        }
        long total = 1;
        for (int d = 0; d < n; d++) {
            if (sizes[d] < 1 || subSizes[d] < 1 || starts[d] < 0 || starts[d] + subSizes[d] > sizes[d]) {
                throw new MPIException(MPI.ERR_ARG, "subarray: dimension " + d + " (size " + sizes[d] + ", subsize "
                    + subSizes[d] + ", start " + starts[d] + ") does not lie in the array");
            }
            total *= sizes[d];
        }
        // Blocks are rows along the fastest dimension; walk the others in order.
        final int fast = order == MPI.ORDER_C ? n - 1 : 0;
        final int[] stride = new int[n];
        long s = 1;
        for (int k = 0; k < n; k++) {
            final int d = order == MPI.ORDER_C ? n - 1 - k : k;
            stride[d] = Math.toIntExact(s);
            s *= sizes[d];
        }
        final List<int[]> blocks = new ArrayList<>();
        final int[] index = new int[n];
        walk(0, n, fast, order, subSizes, starts, stride, index, blocks);
        final int[] lengths = new int[blocks.size()];
        final int[] displs = new int[blocks.size()];
        for (int i = 0; i < lengths.length; i++) {
            displs[i] = blocks.get(i)[0];
            lengths[i] = subSizes[fast];
        }
        final Datatype t = derive(lengths, displs, false, old);
        final long oldExtent = old.map.extent();
        return derived(new TypeMap(t.map.kind(), t.map.displs(), t.map.lengths(), 0,
            Math.multiplyExact(total, oldExtent)), t);
    }

    private static void walk(final int k, final int n, final int fast, final int order, final int[] subSizes,
                             final int[] starts, final int[] stride, final int[] index, final List<int[]> blocks) {
        if (k == n) {
            int offset = 0;
            for (int d = 0; d < n; d++) {
                offset += (d == fast ? starts[d] : index[d]) * stride[d];
            }
            blocks.add(new int[] {offset});
            return;
        }
        // Slowest dimension first, so that blocks come in memory order.
        final int d = order == MPI.ORDER_C ? k : n - 1 - k;
        if (d == fast) {
            walk(k + 1, n, fast, order, subSizes, starts, stride, index, blocks);
            return;
        }
        for (int i = starts[d]; i < starts[d] + subSizes[d]; i++) {
            index[d] = i;
            walk(k + 1, n, fast, order, subSizes, starts, stride, index, blocks);
        }
    }

    /** Places {@code lengths[i]} old items at old-item displacement {@code displs[i]} (elements if inElements). */
    private static Datatype derive(final int[] lengths, final int[] displs, final boolean inElements,
                                   final Datatype old) {
        final TypeMap m = old.map;
        final List<long[]> runs = new ArrayList<>();
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        for (int i = 0; i < lengths.length; i++) {
            for (int k = 0; k < lengths[i]; k++) {
                final long origin = inElements ? displs[i] + (long) k * m.extent() : ((long) displs[i] + k)
                    * m.extent();
                lb = Math.min(lb, origin + m.lb());
                ub = Math.max(ub, origin + m.lb() + m.extent());
                for (int j = 0; j < m.displs().length; j++) {
                    final long start = origin + m.displs()[j];
                    final long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
                    if (last != null && last[0] + last[1] == start) {
                        last[1] += m.lengths()[j];
                    } else {
                        runs.add(new long[] {start, m.lengths()[j]});
                    }
                }
            }
        }
        final int[] d = new int[runs.size()];
        final int[] l = new int[runs.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.toIntExact(runs.get(i)[0]);
            l[i] = Math.toIntExact(runs.get(i)[1]);
        }
        if (runs.isEmpty()) {
            lb = 0;
            ub = 0;
        }
        final Datatype t = derived(new TypeMap(m.kind(), d, l, lb, ub - lb), old);
        long items = 0;
        for (final int len : lengths) {
            items += len;
        }
        t.sig = Signature.repeat(old.sig, items);
        return t;
    }

    private static Datatype usable(final Datatype t) throws MPIException {
        if (t == null || t.freed) {
            throw new MPIException(MPI.ERR_TYPE, t == null ? "datatype is null" : "datatype has been freed");
        }
        return t;
    }

    private static void checkCount(final int n) throws MPIException {
        if (n < 0) {
            throw new MPIException(MPI.ERR_COUNT, "negative count " + n);
        }
    }

    private static void sameLength(final int[] a, final int[] b) throws MPIException {
        if (a.length != b.length) {
            throw new MPIException(MPI.ERR_ARG, "blockLengths has " + a.length + " entries, displacements "
                + b.length);
        }
    }

    private static int wholeElements(final int bytes, final Datatype old) throws MPIException {
        final int size = old.map.kind().bytes;
        if (bytes % size != 0) {
            throw new MPIException(MPI.ERR_ARG, "byte displacement " + bytes + " is not a whole number of "
                + old.map.kind() + " elements (" + size + " bytes)");
        }
        return bytes / size;
    }

    /**
     * {@code MPI_Type_commit}: makes a derived type usable in communication (basic types always are).
     *
     * @throws MPIException {@code ERR_TYPE} if the type has been freed
     */
    public void commit() throws MPIException {
        usable(this);
        committed = true;
    }

    /**
     * {@code MPI_Type_free}; a basic type cannot be freed.
     *
     * @throws MPIException {@code ERR_TYPE} for a basic type or one already freed
     */
    @Override
    public void free() throws MPIException {
        if (predefined) {
            throw new MPIException(MPI.ERR_TYPE, "a predefined datatype (" + name + ") cannot be freed");
        }
        usable(this);
        freed = true;
    }

    /**
     * Whether this is {@code MPI_DATATYPE_NULL}: a type becomes it once freed, as in Open MPI's bindings.
     *
     * @return true once freed
     */
    public boolean isNull() {
        return freed;
    }

    /**
     * The lower bound, in base elements.
     *
     * @return the lower bound
     * @throws MPIException {@code ERR_TYPE} if freed
     */
    public int getLb() throws MPIException {
        return (int) usable(this).map.lb();
    }

    /**
     * The extent, in base elements.
     *
     * @return the extent
     * @throws MPIException {@code ERR_TYPE} if freed
     */
    public int getExtent() throws MPIException {
        return (int) usable(this).map.extent();
    }

    /**
     * The true lower bound (of the elements themselves), in base elements.
     *
     * @return the lowest element offset
     * @throws MPIException {@code ERR_TYPE} if freed
     */
    public int getTrueLb() throws MPIException {
        return (int) usable(this).map.lowest(1);
    }

    /**
     * The true extent (from the lowest to past the highest element), in base elements.
     *
     * @return the true extent
     * @throws MPIException {@code ERR_TYPE} if freed
     */
    public int getTrueExtent() throws MPIException {
        return (int) (usable(this).map.highest(1) - map.lowest(1));
    }

    /**
     * The number of base elements one item holds.
     *
     * @return the size in elements
     * @throws MPIException {@code ERR_TYPE} if freed
     */
    public int getSize() throws MPIException {
        return (int) usable(this).map.size();
    }

    /**
     * Names the type.
     *
     * @param name the name
     */
    public void setName(final String name) {
        this.name = name;
    }

    /**
     * The type's name ({@code "MPI_INT"} for {@code MPI.INT}, null for an unnamed derived type).
     *
     * @return the name
     */
    public String getName() {
        return name;
    }

    /**
     * {@code MPI_Type_dup}: a new type with the same elements, committed if this one is.
     *
     * @return the copy
     * @throws MPIException {@code ERR_TYPE} if freed
     */
    public Datatype dup() throws MPIException {
        final Datatype d = new Datatype(usable(this).map, pair, false, name, align);
        d.committed = committed;
        d.sig = sig;
        d.complex = complex;
        return d;
    }

    @Override
    public Datatype clone() {
        final Datatype d = new Datatype(map, pair, false, name, align);
        d.committed = committed;
        d.sig = sig;
        d.complex = complex;
        return d;
    }

    /** The map, if the type may be used to communicate. */
    TypeMap forUse() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_TYPE, "datatype " + describe() + " has been freed");
        }
        if (!committed) {
            throw new MPIException(MPI.ERR_TYPE, "datatype " + describe() + " is not committed");
        }
        return map;
    }

    Kind kind() {
        return map.kind();
    }

    String describe() {
        return name != null ? name : "derived from " + map.kind();
    }

    @Override
    public String toString() {
        return "Datatype[" + describe() + "]";
    }
}
