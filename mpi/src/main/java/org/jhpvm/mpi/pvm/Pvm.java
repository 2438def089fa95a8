package org.jhpvm.mpi.pvm;

import org.jhpvm.mpi.AttachedJob;
import org.jhpvm.mpi.internal.Engine;
import org.jhpvm.mpi.internal.RankBinding;

/**
 * FPVM: the PVM 3 message-passing interface on Fast Messages, for one task (a rank of an MPI job: {@code MpiJob},
 * or a PE's main thread under {@code bin/jhpvm run}). The calls are PVM's without the {@code pvm_} prefix and return
 * what PVM's return: a buffer id or tid when positive, {@code PvmOk}, or a negative {@code Pvm*} error code; a
 * refused call changes nothing. See the module README for what is and is not PVM's full interface.
 * <p>
 * Tasks are numbered by tid: {@code TID_BASE + rank}. Every task of the job calls {@link #exit()} before it ends.
 */
public final class Pvm extends PvmMessages {
    private final PvmTransport transport;
    private final int me;
    private final int size;
    private boolean exited;

    @Override
    boolean exited() {
        return exited;
    }

    private Pvm(final Engine engine) {
        this.transport = new PvmTransport(engine);
        this.me = engine.me;
        this.size = engine.size;
    }

    /**
     * The calling task's PVM ({@code pvm_mytid} enrolls it): a rank of an MPI job, or under {@code bin/jhpvm run} a
     * PE's main thread, which joins the program's job.
     *
     * @return this task's PVM
     * @throws IllegalStateException if the thread is no task of a job
     */
    public static Pvm task() {
        Engine e = RankBinding.current();
        if (e == null) {
            final AttachedJob.Seat seat = AttachedJob.locate();
            if (seat == null) {
                throw new IllegalStateException("this thread is not a task of a job (run the program with "
                    + "bin/jhpvm run or MpiJob)");
            }
            seat.job().join(seat.rank());
            e = RankBinding.current();
        }
        if (e.pvm == null) {
            e.pvm = new Pvm(e);
        }
        return (Pvm) e.pvm;
    }

    /**
     * {@code pvm_mytid}.
     *
     * @return this task's tid
     */
    public int mytid() {
        return TID_BASE + me;
    }

    /**
     * {@code pvm_parent}: every task here was started with the job, none by another.
     *
     * @return {@link #PvmNoParent}
     */
    public int parent() {
        return PvmNoParent;
    }

    /**
     * {@code pvm_siblings}: the tasks started together with this one, in rank order.
     *
     * @return their tids
     */
    public int[] siblings() {
        final int[] t = new int[size];
        for (int i = 0; i < size; i++) {
            t[i] = TID_BASE + i;
        }
        return t;
    }

    private int rankOf(final int tid) {
        final int r = tid - TID_BASE;
        return r >= 0 && r < size ? r : -1;
    }

    /**
     * {@code pvm_send}: sends the active send buffer; returns at once (the message is PVM's to deliver).
     *
     * @param tid    the receiver (may be this task)
     * @param msgtag the tag, at least 0
     * @return {@link #PvmOk}, {@link #PvmBadParam} or {@link #PvmNoBuf}
     */
    public int send(final int tid, final int msgtag) {
        final int r = rankOf(tid);
        if (r < 0 || msgtag < 0) {
            return PvmBadParam;
        }
        return sendActive(new int[] {r}, msgtag);
    }

    /**
     * {@code pvm_mcast}: sends the active send buffer to every task listed but this one, by a binomial tree of
     * relays.
     *
     * @param tids   the receivers
     * @param ntask  how many of {@code tids}
     * @param msgtag the tag
     * @return {@link #PvmOk}, {@link #PvmBadParam} (a bad tid or count: nothing is sent) or {@link #PvmNoBuf}
     */
    public int mcast(final int[] tids, final int ntask, final int msgtag) {
        if (tids == null || ntask < 0 || ntask > tids.length || msgtag < 0) {
            return PvmBadParam;
        }
        final java.util.List<Integer> dests = new java.util.ArrayList<>();
        for (int i = 0; i < ntask; i++) {
            final int r = rankOf(tids[i]);
            if (r < 0) {
                return PvmBadParam;
            }
            if (r != me && !dests.contains(r)) {
                dests.add(r);
            }
        }
        return sendActive(dests.stream().mapToInt(Integer::intValue).toArray(), msgtag);
    }

    /** Sends the active send buffer to the ranks given (the arguments checked). */
    private int sendActive(final int[] ranks, final int msgtag) {
        final PvmBuffer b = buffers.get(sbuf);
        if (b == null) {
            return PvmNoBuf;
        }
        if (exited) {
            return PvmSysErr;
        }
        transport.pump();
        transport.send(ranks, msgtag, b.contents());
        return PvmOk;
    }

    /**
     * {@code pvm_psend}: packs {@code len} items of {@code buf} and sends them, without touching the active send
     * buffer.
     *
     * @param tid      the receiver
     * @param msgtag   the tag
     * @param buf      an array of {@code byte}, {@code short}, {@code int}, {@code long}, {@code float} or
     *                 {@code double}
     * @param len      items
     * @param datatype {@link #PVM_BYTE}, {@link #PVM_SHORT}, ... matching the array
     * @return {@link #PvmOk} or {@link #PvmBadParam}
     */
    public int psend(final int tid, final int msgtag, final Object buf, final int len, final int datatype) {
        final int r = rankOf(tid);
        final boolean fits = switch (datatype) {
            case PVM_BYTE -> buf instanceof byte[] a && len <= a.length;
            case PVM_SHORT -> buf instanceof short[] a && len <= a.length;
            case PVM_INT -> buf instanceof int[] a && len <= a.length;
            case PVM_LONG -> buf instanceof long[] a && len <= a.length;
            case PVM_FLOAT -> buf instanceof float[] a && len <= a.length;
            case PVM_DOUBLE -> buf instanceof double[] a && len <= a.length;
            default -> false;
        };
        if (r < 0 || msgtag < 0 || len < 0 || !fits) {
            return PvmBadParam;
        }
        if (exited) {
            return PvmSysErr;
        }
        final PvmBuffer b = new PvmBuffer(PvmDataRaw);
        b.pack(buf, len, 1);
        transport.pump();
        transport.send(new int[] {r}, msgtag, b.contents());
        return PvmOk;
    }

    /** The bufid of an arrived message (made the first time it is asked for). */
    private int bufidOf(final PvmTransport.Arrived a) {
        if (a.bufid == 0) {
            a.bufid = newBuffer(new PvmBuffer(a.bytes, a.offset, a.tag, TID_BASE + a.origin));
        }
        return a.bufid;
    }

    private int checkMatch(final int tid, final int msgtag) {
        if (tid != -1 && rankOf(tid) < 0) {
            return PvmBadParam;
        }
        if (msgtag < -1) {
            return PvmBadParam;
        }
        return exited ? PvmSysErr : PvmOk;
    }

    private int receive(final PvmTransport.Arrived a) {
        final int id = bufidOf(a);
        transport.take(a);
        if (rbuf != 0 && rbuf != id) {
            buffers.remove(rbuf);
        }
        rbuf = id;
        return id;
    }

    /**
     * {@code pvm_recv}: waits for a message from {@code tid} (-1: any) with {@code msgtag} (-1: any); it becomes
     * the active receive buffer (the previous one is freed).
     *
     * @param tid    the sender or -1
     * @param msgtag the tag or -1
     * @return the new buffer's id, or {@link #PvmBadParam}
     */
    public int recv(final int tid, final int msgtag) {
        return trecv(tid, msgtag, -1);
    }

    /**
     * {@code pvm_nrecv}: {@link #recv} if the message is there, else 0 at once.
     *
     * @param tid    the sender or -1
     * @param msgtag the tag or -1
     * @return the new buffer's id, 0 if none, or {@link #PvmBadParam}
     */
    public int nrecv(final int tid, final int msgtag) {
        return trecv(tid, msgtag, 0);
    }

    /**
     * {@code pvm_trecv}: {@link #recv} waiting at most {@code timeoutMicros} (negative: for ever; 0: not at all).
     *
     * @param tid           the sender or -1
     * @param msgtag        the tag or -1
     * @param timeoutMicros the longest wait in microseconds
     * @return the new buffer's id, 0 on timeout, or {@link #PvmBadParam}
     */
    public int trecv(final int tid, final int msgtag, final long timeoutMicros) {
        final int bad = checkMatch(tid, msgtag);
        if (bad != PvmOk) {
            return bad;
        }
        final int origin = tid == -1 ? -1 : rankOf(tid);
        final long deadline = timeoutMicros < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMicros * 1000;
        while (true) {
            transport.pump();
            final PvmTransport.Arrived a = transport.find(origin, msgtag);
            if (a != null) {
                return receive(a);
            }
            final long left = deadline - System.nanoTime();
            if (timeoutMicros == 0 || left <= 0) {
                return 0;
            }
            transport.idle(Math.min(left, 1_000_000));
        }
    }

    /**
     * {@code pvm_probe}: whether a matching message has arrived, without receiving it.
     *
     * @param tid    the sender or -1
     * @param msgtag the tag or -1
     * @return a buffer id for {@link #bufinfo} if it has, 0 if not, or {@link #PvmBadParam}
     */
    public int probe(final int tid, final int msgtag) {
        final int bad = checkMatch(tid, msgtag);
        if (bad != PvmOk) {
            return bad;
        }
        transport.pump();
        final PvmTransport.Arrived a = transport.find(tid == -1 ? -1 : rankOf(tid), msgtag);
        return a == null ? 0 : bufidOf(a);
    }

    /** Messages this task has handed to the engine, its relays included (for tests of the multicast tree). */
    long sentCount() {
        return transport.sentCount();
    }

    /**
     * {@code pvm_exit}: waits until every task of the job has called it and no message is in flight (relaying
     * others' multicasts meanwhile), then leaves PVM. Under {@code bin/jhpvm run} it also ends the task's part in the
     * job, as {@code MPI.Finalize} does.
     *
     * @return {@link #PvmOk}, or {@link #PvmSysErr} if called twice
     */
    public int exit() {
        if (exited) {
            return PvmSysErr;
        }
        transport.quiesce();
        exited = true;
        if (transport.engine.onFinalize != null) {
            transport.engine.onFinalize.run();
        }
        return PvmOk;
    }
}
