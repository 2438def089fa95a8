package mpi;

import org.jhpvm.mpi.internal.Engine;
import org.jhpvm.mpi.internal.RankBinding;

/** One rank's API state: its engine, its world and self communicators, and where it is in Init/Finalize. */
final class Rank {
    final Engine engine;
    final CommState world;
    final CommState self;
    boolean initialized;
    boolean finalized;
    int threadLevel = MPI.THREAD_FUNNELED;
    /** The next free context id: each communicator takes two (point-to-point, collective). */
    int nextContext = 4;
    /** The buffer {@code MPI.attachBuffer} gave (its size bounds the buffered sends in flight), or null. */
    byte[] attached;
    /** Bytes of it the buffered sends in flight take (their data and {@code MPI.BSEND_OVERHEAD} each). */
    long attachedUsed;
    /** The buffered sends in flight and what each takes. */
    final java.util.List<java.util.Map.Entry<org.jhpvm.mpi.internal.Pending, Long>> buffered =
        new java.util.ArrayList<>();

    /** Gives back the space of the buffered sends that have completed. */
    void reclaim() {
        buffered.removeIf(e -> {
            if (e.getKey().done) {
                attachedUsed -= e.getValue();
                return true;
            }
            return false;
        });
    }

    /** Waits until every buffered send has completed. */
    void drainBuffered() {
        for (final java.util.Map.Entry<org.jhpvm.mpi.internal.Pending, Long> e : buffered) {
            engine.await(e.getKey());
        }
        reclaim();
    }

    private Rank(final Engine engine) {
        this.engine = engine;
        final int[] all = new int[engine.size];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        this.world = new CommState(this, 0, all, "MPI_COMM_WORLD");
        this.self = new CommState(this, 2, new int[] {engine.me}, "MPI_COMM_SELF");
    }

    /** The calling thread's rank, made on first use; null outside an MPI job. */
    static Rank ofThread() {
        final Engine e = RankBinding.current();
        if (e == null) {
            return null;
        }
        if (e.attachment == null) {
            e.attachment = new Rank(e);
        }
        return (Rank) e.attachment;
    }

    /**
     * {@code MPI_Init_thread} on the calling thread: joins it to its job's rank if it has not yet, and starts MPI.
     *
     * @param required the thread level asked for
     * @return the level provided: {@code THREAD_FUNNELED} at most (the rank's own thread calls MPI)
     * @throws MPIException if the thread is not a rank of an MPI job, or MPI was initialized already
     */
    static int init(final int required) throws MPIException {
        Rank r = ofThread();
        if (r == null) {
            final Runnable join = org.jhpvm.mpi.internal.RankSeats.forThisThread();
            if (join == null) {
                throw new MPIException(MPI.ERR_OTHER, "this thread is not a rank of an MPI job (run the program with "
                    + "bin/jhpvm run or MpiJob)");
            }
            join.run();
            r = ofThread();
        }
        if (r.initialized) {
            throw new MPIException(MPI.ERR_OTHER, "MPI is already initialized.");
        }
        r.initialized = true;
        r.threadLevel = Math.min(Math.max(required, MPI.THREAD_SINGLE), MPI.THREAD_FUNNELED);
        return r.threadLevel;
    }

    /**
     * {@code MPI_Finalize} on this rank (collective over the world): its buffered sends complete, every rank arrives,
     * then MPI ends here.
     *
     * @throws MPIException if a step fails
     */
    void finish() throws MPIException {
        drainBuffered();
        Collectives.barrier(world);
        finalized = true;
        if (engine.onFinalize != null) {
            engine.onFinalize.run();
        }
    }

    /** The calling thread's rank, which must be between Init and Finalize. */
    static Rank active() throws MPIException {
        final Rank r = ofThread();
        if (r == null) {
            throw new MPIException(MPI.ERR_OTHER, "this thread is not a rank of an MPI job (run the program with "
                + "bin/jhpvm run or MpiJob)");
        }
        r.check();
        return r;
    }

    void check() throws MPIException {
        if (!initialized) {
            throw new MPIException(MPI.ERR_OTHER, "MPI is not initialized.");
        }
        if (finalized) {
            throw new MPIException(MPI.ERR_OTHER, "MPI is finalized.");
        }
    }
}
