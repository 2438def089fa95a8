package org.jhpvm.fm;

import org.jhpvm.fabric.VirtualTime;

/**
 * The clock of a PE's thread, as the layers above FM read it ({@code MPI_Wtime}, the hydro code's timers): the
 * modelled machine's time on a fabric with a virtual clock ({@code fabric.clock=virtual}), the wall clock otherwise.
 * The layers above cannot see the fabric's own {@link VirtualTime}; this is it, one layer up.
 */
public final class FmClock {
    private FmClock() {
    }

    /**
     * The calling thread's time: its NIC's virtual clock in a job on a virtual-time fabric (from the PE thread's
     * first step), {@link System#nanoTime()} otherwise.
     *
     * @return nanoseconds, for differences only
     */
    public static long nanoTime() {
        return VirtualTime.nanoTime();
    }

    /**
     * A cost the modelled machine sets for a layer's own work (e.g. {@code mpi.send_ns}), 0 on the wall clock.
     *
     * @param key the cost's key
     * @return its value
     */
    public static double cost(final String key) {
        return VirtualTime.cost(key);
    }

    /**
     * Charges the calling thread's virtual clock for work of a layer's own (nothing on the wall clock).
     *
     * @param nanos modelled nanoseconds
     */
    public static void charge(final long nanos) {
        VirtualTime.charge(nanos);
    }

    /**
     * Whether the calling thread's computation counts only as charged ({@code fabric.cpu=declared}).
     *
     * @return true on a PE thread of a virtual-time job whose computation is declared
     */
    public static boolean computeDeclared() {
        return VirtualTime.computeDeclared();
    }

    /**
     * The modelled machine's {@code cpu_scale} (1 on the wall clock): how much longer it computes than the reference
     * core, for a layer that declares its computation in the reference core's time.
     *
     * @return the factor
     */
    public static double cpuScale() {
        return VirtualTime.cpuScale();
    }

    /**
     * Whether the calling thread's clock is virtual.
     *
     * @return true on a PE thread of a job on a virtual-time fabric
     */
    public static boolean isVirtual() {
        return VirtualTime.isVirtual();
    }
}
