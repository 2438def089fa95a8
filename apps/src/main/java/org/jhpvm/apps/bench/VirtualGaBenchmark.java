package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fabric.timing.MachineModel;
import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricDoubles;

/**
 * Global Arrays on 2 PEs in virtual time ({@code bench ga --clock virtual}): PE 0 puts, gets and accumulates 1-D
 * sections owned by PE 1, and SHMEM moves the same bytes in the same job, on the modelled machine's clock. Puts and
 * accumulates are streams closed by a fence (SHMEM: a quiet), gets are blocking, as users call them. With nothing of
 * this machine's CPU time counted, GA's efficiency over SHMEM here is what its protocol costs on the model: the
 * messages it sends beyond SHMEM's, not its software.
 */
public final class VirtualGaBenchmark {
    /** Section sizes, bytes. */
    public static final int[] SIZES = {8, 64, 512, 1024, 4096, 65536};
    /** The operations, in the order of the result's rows. */
    public static final String[] OPS = {"put", "get", "acc"};

    private VirtualGaBenchmark() {
    }

    /**
     * Runs the job.
     *
     * @param clock    a virtual clock
     * @param rounds   operations per size and kind
     * @param progress told of each finished size
     * @return the modelled figures
     */
    public static Result run(final ClockSettings clock, final int rounds, final IntConsumer progress) {
        if (!clock.virtual() || rounds < 1) {
            throw new IllegalArgumentException("needs a virtual clock and rounds >= 1");
        }
        final ClockSettings declared = new ClockSettings(true, clock.machine(), clock.switches(), false);
        final MachineModel machine = declared.model();
        final int frameBytes = machine.packetBytes() > 0 ? machine.packetBytes()
            : VirtualFmBenchmark.MESSAGE_FRAME_BYTES;
        final double[][] gaUs = new double[OPS.length][SIZES.length];
        final double[][] shmemUs = new double[OPS.length][SIZES.length];
        final long wallStart = System.nanoTime();
        final ShmemJob.Builder job = ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(30)).inProcess()
            .option("fabric.frameBytes", Integer.toString(frameBytes));
        declared.options().forEach(job::option);
        job.build().run(s -> {
            final GlobalArrays g = new GlobalArrays(s);
            final int maxElems = SIZES[SIZES.length - 1] / 8;
            // PE 1 owns [maxElems, 2 * maxElems).
            final GlobalArray a = g.builder(GaType.DOUBLE, 2 * maxElems).procGrid(2).name("virtual-ga").create();
            final SymmetricDoubles base = s.mallocDoubles(maxElems);
            final double[] buf = new double[maxElems];
            s.barrierAll();
            for (int i = 0; i < SIZES.length; i++) {
                final int n = SIZES[i] / 8;
                final int[] lo = {maxElems};
                final int[] hi = {maxElems + n - 1};
                final int[] ld = {};
                if (s.myPe() == 0) {
                    gaUs[0][i] = perOpUs(rounds, () -> {
                        for (int k = 0; k < rounds; k++) {
                            a.put(lo, hi, buf, ld);
                        }
                        g.fence();
                        return 0;
                    });
                    shmemUs[0][i] = perOpUs(rounds, () -> {
                        for (int k = 0; k < rounds; k++) {
                            base.put(1, 0, buf, 0, n);
                        }
                        s.quiet();
                        return 0;
                    });
                    gaUs[1][i] = perOpUs(rounds, () -> {
                        for (int k = 0; k < rounds; k++) {
                            a.get(lo, hi, buf, ld);
                        }
                        return 0;
                    });
                    shmemUs[1][i] = perOpUs(rounds, () -> {
                        for (int k = 0; k < rounds; k++) {
                            base.get(1, 0, buf, 0, n);
                        }
                        return 0;
                    });
                    gaUs[2][i] = perOpUs(rounds, () -> {
                        for (int k = 0; k < rounds; k++) {
                            a.acc(lo, hi, buf, ld, 1.0);
                        }
                        g.fence();
                        return 0;
                    });
                    shmemUs[2][i] = perOpUs(rounds, () -> {
                        for (int k = 0; k < rounds; k++) {
                            base.acc(1, 0, buf, 0, n, 1.0);
                        }
                        s.quiet();
                        return 0;
                    });
                    progress.accept(1);
                }
                s.barrierAll();
            }
        });
        return new Result(machine, frameBytes, gaUs, shmemUs, (System.nanoTime() - wallStart) / 1e9);
    }

    /** The modelled time of {@code body} per operation, microseconds. */
    private static double perOpUs(final int ops, final LongSupplier body) {
        final long t0 = VirtualTime.picoTime();
        body.getAsLong();
        return (VirtualTime.picoTime() - t0) / 1e6 / ops;
    }

    /**
     * The modelled figures.
     *
     * @param machine     the machine, its switches applied
     * @param frameBytes  the frame size of the run
     * @param gaUs        GA's time per operation, by {@link #OPS} then {@link #SIZES}, microseconds
     * @param shmemUs     SHMEM's, likewise
     * @param wallSeconds the wall-clock time the run took
     */
    public record Result(MachineModel machine, int frameBytes, double[][] gaUs, double[][] shmemUs,
                         double wallSeconds) {
        /**
         * GA's bandwidth of an operation at a size.
         *
         * @param op the entry of {@link #OPS}
         * @param i  the entry of {@link #SIZES}
         * @return MB/s (10^6 bytes per second)
         */
        public double gaMBps(final int op, final int i) {
            return SIZES[i] / gaUs[op][i];
        }

        /**
         * GA's efficiency over SHMEM for an operation at a size: SHMEM's time over GA's.
         *
         * @param op the entry of {@link #OPS}
         * @param i  the entry of {@link #SIZES}
         * @return the ratio, 1 where GA costs what SHMEM does
         */
        public double efficiency(final int op, final int i) {
            return shmemUs[op][i] / gaUs[op][i];
        }

        /**
         * GA's least efficiency over SHMEM for an operation over the sizes.
         *
         * @param op the entry of {@link #OPS}
         * @return the least ratio
         */
        public double minEfficiency(final int op) {
            double min = Double.MAX_VALUE;
            for (int i = 0; i < SIZES.length; i++) {
                min = Math.min(min, efficiency(op, i));
            }
            return min;
        }

        /**
         * The peak bandwidth of GA's put stream over the sizes, MB/s.
         *
         * @return the peak bandwidth of GA's put stream over the sizes, MB/s
         */
        public double putRInfMBps() {
            double peak = 0;
            for (int i = 0; i < SIZES.length; i++) {
                peak = Math.max(peak, gaMBps(0, i));
            }
            return peak;
        }

        /**
         * The half-power point of GA's put stream, bytes.
         *
         * @return the half-power point of GA's put stream, bytes
         */
        public double putNHalfBytes() {
            final double[] bw = new double[SIZES.length];
            for (int i = 0; i < bw.length; i++) {
                bw[i] = gaMBps(0, i);
            }
            return Stats.halfPowerPoint(SIZES, bw);
        }
    }
}
