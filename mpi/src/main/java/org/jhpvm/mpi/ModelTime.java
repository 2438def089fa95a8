package org.jhpvm.mpi;

import org.jhpvm.fm.FmClock;

/**
 * A program's own computation on a modelled machine's clock (a jhpvm extension; {@code MPI.wtime()} reads the same
 * clock). In a job on a virtual-time fabric with {@code fabric.cpu=declared}, a PE's clock moves between its
 * communication calls only by what the program {@link #charge}s, so the modelled times of a run depend on nothing this
 * machine measures: the same run gives the same times, bit for bit. Elsewhere (the wall clock, or measured CPU time)
 * a program that asks {@link #computeDeclared()} first charges nothing.
 * <p>
 * Thread-safety: every method acts for the calling thread (a PE's).
 */
public final class ModelTime {
    private ModelTime() {
    }

    /**
     * Whether the calling PE's computation counts only as it is charged ({@code fabric.cpu=declared}).
     *
     * @return true on a PE thread of a virtual-time job whose computation is declared
     */
    public static boolean computeDeclared() {
        return FmClock.computeDeclared();
    }

    /**
     * The modelled machine's {@code cpu_scale}: how many times longer its processor takes than one core of the
     * reference machine (a 2020s x86 server core). A program that knows its work's cost on that core charges the
     * cost times this factor.
     *
     * @return the factor; 1 on the wall clock
     */
    public static double cpuScale() {
        return FmClock.cpuScale();
    }

    /**
     * Advances the calling PE's virtual clock by {@code nanos} of modelled computation (nothing on the wall clock;
     * where CPU time is measured, on top of it: ask {@link #computeDeclared()} first).
     *
     * @param nanos modelled nanoseconds, not negative
     * @throws IllegalArgumentException if {@code nanos} is negative
     */
    public static void charge(final long nanos) {
        FmClock.charge(nanos);
    }
}
