package org.jhpvm.fabric;

/**
 * The clock a PE's program reads, whatever the fabric's clock: in a job on a fabric with {@code fabric.clock=virtual}
 * it is the virtual clock of the NIC the calling thread last used (the modelled machine's time); otherwise it is
 * {@link System#nanoTime()}. A program (or a benchmark) times itself with {@link #nanoTime()} and runs unchanged on
 * both clocks; with {@code fabric.cpu=declared} it says what its computation costs with {@link #charge(long)}.
 * <p>
 * Thread-safety: every method acts for the calling thread.
 */
public final class VirtualTime {
    private static final ThreadLocal<Host> BOUND = new ThreadLocal<>();

    private VirtualTime() {
    }

    /**
     * The time now: the calling thread's virtual clock in nanoseconds (counting its CPU time since its last fabric
     * call when compute is measured), or {@link System#nanoTime()} if the thread uses no virtual-time NIC.
     *
     * @return nanoseconds, for differences only
     */
    public static long nanoTime() {
        final Host host = live();
        return host == null ? System.nanoTime() : host.nowPs() / 1000;
    }

    /**
     * As {@link #nanoTime()}, in picoseconds: a virtual clock's own unit, so that model times keep their precision.
     *
     * @return picoseconds, for differences only
     */
    public static long picoTime() {
        final Host host = live();
        return host == null ? System.nanoTime() * 1000 : host.nowPs();
    }

    /** @return the calling thread's host if its fabric is still open; unbinds one whose fabric closed */
    private static Host live() {
        final Host host = BOUND.get();
        if (host != null && !host.live()) {
            BOUND.remove();
            return null;
        }
        return host;
    }

    /**
     * Whether the calling thread's clock is virtual.
     *
     * @return true if the thread has used a NIC of a virtual-time fabric
     */
    public static boolean isVirtual() {
        return live() != null;
    }

    /**
     * Declares that the calling thread has computed for {@code nanos} of the modelled machine's time: its virtual
     * clock advances by that much. On a wall clock it does nothing (the computation took its own time).
     *
     * @param nanos nanoseconds of modelled computation, not negative
     * @throws IllegalArgumentException if {@code nanos} is negative
     */
    public static void charge(final long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("charge of " + nanos + " ns: must not be negative");
        }
        final Host host = live();
        if (host != null) {
            host.chargePs(Math.multiplyExact(nanos, 1000L));
        }
    }

    /**
     * Whether the calling thread's computation counts only as it is declared ({@code fabric.cpu=declared}): a
     * program that knows what its work costs then {@link #charge}s it, and its modelled times depend on nothing this
     * machine measures. False on a wall clock and where CPU time is measured.
     *
     * @return true if the thread's clock is virtual and counts only {@link #charge}
     */
    public static boolean computeDeclared() {
        final Host host = live();
        return host != null && !host.computeMeasured();
    }

    /**
     * The modelled machine's {@code cpu_scale}: how many times longer its processor takes for a piece of computation
     * than one core of the reference machine (a 2020s x86 server core), so that a program that declares its
     * computation in the reference core's nanoseconds can {@link #charge} it on any machine.
     *
     * @return the factor; 1 on a wall clock
     */
    public static double cpuScale() {
        final Host host = live();
        return host == null ? 1 : host.cpuScale();
    }

    /**
     * Marks the calling thread as waiting (a layer's wait loop: FM's {@code extractUntil}) or not: while it waits,
     * the CPU time it spends between fabric calls is the wait's own spinning, not computation, and does not advance
     * its virtual clock (the wait ends at the arrival that ends it). Waits nest; on a wall clock this does nothing.
     *
     * @param waiting true as a wait begins, false as it ends
     */
    public static void waiting(final boolean waiting) {
        final Host host = BOUND.get();
        if (host != null) {
            host.waiting(waiting);
        }
    }

    /**
     * A cost the calling thread's machine sets for a layer's own work ({@code mpi.send_ns}: see
     * {@code MachineModel.layers()}), for the layer to {@link #charge} where it does that work.
     *
     * @param key the cost's key
     * @return its value, 0 if the machine sets none or the clock is the wall clock
     */
    public static double cost(final String key) {
        final Host host = live();
        return host == null ? 0 : host.cost(key);
    }

    /**
     * For fabric implementations: makes {@code host} the clock of the calling thread.
     *
     * @param host the NIC the thread now uses
     */
    public static void bind(final Host host) {
        if (BOUND.get() != host) {
            BOUND.set(host);
        }
    }

    /**
     * For fabric implementations: the calling thread's clock, or null.
     *
     * @return the bound host
     */
    public static Host bound() {
        return BOUND.get();
    }

    /** For fabric implementations: a NIC with a virtual clock. */
    public interface Host {
        /**
         * The host's clock, having counted the calling thread's CPU time since its last call if compute is
         * measured.
         *
         * @return picoseconds
         */
        long nowPs();

        /**
         * Advances the host's clock by declared computation.
         *
         * @param ps picoseconds
         */
        void chargePs(long ps);

        /**
         * A layer's cost on the host's machine.
         *
         * @param key the cost's key
         * @return its value, 0 if not set
         */
        double cost(String key);

        /**
         * The calling thread begins or ends a wait (see {@link VirtualTime#waiting(boolean)}).
         *
         * @param waiting true as a wait begins
         */
        void waiting(boolean waiting);

        /**
         * Whether the host counts its thread's CPU time between calls ({@code fabric.cpu=measured}) or only what is
         * charged ({@code declared}).
         *
         * @return true if CPU time is measured
         */
        boolean computeMeasured();

        /**
         * The machine's {@code cpu_scale} (see {@link VirtualTime#cpuScale()}).
         *
         * @return the factor
         */
        double cpuScale();

        /**
         * Whether the host's fabric is still open.
         *
         * @return false once it is closed: the thread's clock is the wall clock again
         */
        boolean live();
    }
}
