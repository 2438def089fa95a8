package org.jhpvm.mpi.internal;

import org.jhpvm.fm.PeThread;

/**
 * Which rank a thread belongs to: MPI's calls on {@code COMM_WORLD} (one static object shared by every rank of the
 * JVM) find their rank's engine here. A rank's own thread holds it in its {@link PeThread}'s slot, read with a type
 * test on every call; an inheritable thread-local holds it too, for threads the rank starts and for threads that are
 * not PE threads.
 */
public final class RankBinding {
    private static final InheritableThreadLocal<Engine> CURRENT = new InheritableThreadLocal<>();

    private RankBinding() {
    }

    /**
     * The engine of the rank the calling thread belongs to (threads a rank starts inherit it).
     *
     * @return the engine, or null outside an MPI job
     */
    public static Engine current() {
        return PeThread.current() instanceof Engine e ? e : CURRENT.get();
    }

    /**
     * Makes {@code engine}'s rank the calling thread's, until {@link #unbind()}.
     *
     * @param engine the rank's engine
     */
    public static void bind(final Engine engine) {
        CURRENT.set(engine);
        PeThread.attach(engine);
    }

    /** Ends the calling thread's binding to a rank. */
    public static void unbind() {
        CURRENT.remove();
        if (PeThread.current() instanceof Engine) {
            PeThread.attach(null);
        }
    }
}
