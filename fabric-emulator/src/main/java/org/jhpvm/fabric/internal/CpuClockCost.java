package org.jhpvm.fabric.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The cost of one read of a thread's CPU clock on this machine, measured when first needed: a virtual NIC that counts
 * measured computation takes it off each interval between calls ({@link VirtualNic}), so that the reads are not
 * counted as the PE's work.
 */
final class CpuClockCost {
    /** Nanoseconds per read, the best of three rounds of 2,000 reads after 2,000 to warm up. */
    static final long NS = measure();

    private CpuClockCost() {
    }

    private static long measure() {
        final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int i = 0; i < 2_000; i++) {
            sink += cpu.getCurrentThreadCpuTime(); // warm: the JIT's code, not the interpreter's
        }
        final int reads = 2_000;
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            final long t0 = System.nanoTime();
            for (int i = 0; i < reads; i++) {
                sink += cpu.getCurrentThreadCpuTime();
            }
            best = Math.min(best, (System.nanoTime() - t0) / reads);
        }
        return sink == 42 ? best + 1 : best; // the sink keeps the reads from being removed
    }
}
