package org.jhpvm.mpi.internal;

import java.util.function.Supplier;

/**
 * How {@code MPI.Init} on a thread that has no rank yet joins the job it belongs to: the launcher
 * ({@code org.jhpvm.mpi.AttachedJob}) installs a finder here, and package {@code mpi} asks it, so that the MPI API
 * does not depend on the launcher that runs it.
 */
public final class RankSeats {
    private static volatile Supplier<Runnable> finder = () -> null;

    private RankSeats() {
    }

    /**
     * Installs the finder.
     *
     * @param joins gives the join of the calling thread's rank (run on that thread, it makes the thread the rank),
     *              or null if the thread is not a rank of any job; null removes the finder
     */
    public static void setFinder(final Supplier<Runnable> joins) {
        finder = joins == null ? () -> null : joins;
    }

    /**
     * The join of the calling thread's rank.
     *
     * @return the join, or null if the thread is not a rank of any job
     */
    public static Runnable forThisThread() {
        return finder.get();
    }
}
