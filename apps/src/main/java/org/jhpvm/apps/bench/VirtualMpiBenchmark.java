package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;

import mpi.MPI;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.timing.MachineModel;
import org.jhpvm.mpi.MpiJob;

/**
 * MPI on 2 ranks in virtual time ({@code bench mpi --clock virtual}): the MPI-FM paper's measurements on a modelled
 * machine, timed with {@code MPI.wtime()} (the rank's virtual clock): one-way latency by a ping-pong of blocking
 * sends and receives, and the per-message time of a stream of sends (the difference of two streams of different
 * lengths), hence bandwidth and its efficiency over FM at the same sizes, run in the same machine's model. MPI's own
 * work costs what the machine file's {@code layers.mpi.*} says; nothing of this machine's CPU time counts.
 */
public final class VirtualMpiBenchmark {
    /** Sizes of both sweeps, bytes. */
    public static final int[] SIZES = {8, 64, 256, 1024, 4096, 16384, 65536};

    private final ClockSettings clock;
    private final int roundTrips;
    private final int messages;

    /**
     * Keeps the settings; nothing runs until {@link #run}.
     *
     * @param clock      a virtual clock
     * @param roundTrips ping-pong round trips per size
     * @param messages   messages of the longer stream per size (the shorter sends a quarter)
     */
    public VirtualMpiBenchmark(final ClockSettings clock, final int roundTrips, final int messages) {
        if (!clock.virtual() || roundTrips < 1 || messages < 8) {
            throw new IllegalArgumentException("the virtual-time bench needs a virtual clock, round trips >= 1 and "
                + "messages >= 8");
        }
        this.clock = new ClockSettings(true, clock.machine(), clock.switches(), false);
        this.roundTrips = roundTrips;
        this.messages = messages;
    }

    /**
     * Runs MPI, then FM at the same sizes, on the same machine.
     *
     * @param progress told of each finished size
     * @return the modelled figures
     */
    public Result run(final IntConsumer progress) {
        final MachineModel machine = clock.model();
        final int frameBytes = machine.packetBytes() > 0 ? machine.packetBytes() : VirtualFmBenchmark.MESSAGE_FRAME_BYTES;
        final double[] latencyUs = new double[SIZES.length];
        final double[] perMessageUs = new double[SIZES.length];
        final MpiJob.Builder job = MpiJob.builder().ranks(2).timeout(Duration.ofMinutes(30)).inProcess()
            .option("fabric.frameBytes", Integer.toString(frameBytes));
        clock.options().forEach(job::option);
        job.build().run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int peer = 1 - me;
            final byte[] out = new byte[SIZES[SIZES.length - 1]];
            final byte[] in = new byte[out.length];
            final byte[] ack = new byte[1];
            MPI.COMM_WORLD.barrier();
            for (int i = 0; i < SIZES.length; i++) {
                final int size = SIZES[i];
                final double t0 = MPI.wtime();
                for (int k = 0; k < roundTrips; k++) {
                    if (me == 0) {
                        MPI.COMM_WORLD.send(out, size, MPI.BYTE, peer, 1);
                        MPI.COMM_WORLD.recv(in, size, MPI.BYTE, peer, 1);
                    } else {
                        MPI.COMM_WORLD.recv(in, size, MPI.BYTE, peer, 1);
                        MPI.COMM_WORLD.send(out, size, MPI.BYTE, peer, 1);
                    }
                }
                final double pingPong = MPI.wtime() - t0;
                final double shortS = stream(me, peer, out, in, ack, size, messages / 4);
                final double longS = stream(me, peer, out, in, ack, size, messages);
                if (me == 0) {
                    latencyUs[i] = pingPong * 1e6 / (2.0 * roundTrips);
                    perMessageUs[i] = (longS - shortS) * 1e6 / (messages - messages / 4);
                    progress.accept(1);
                }
            }
            MPI.Finalize();
        });
        final VirtualFmBenchmark.Result fm = new VirtualFmBenchmark(clock, roundTrips, messages).run(step -> { });
        final double[] mbps = new double[SIZES.length];
        final double[] fmMbps = new double[SIZES.length];
        final double[] fmLatencyUs = new double[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            mbps[i] = SIZES[i] / perMessageUs[i];
            fmMbps[i] = at(VirtualFmBenchmark.STREAM_SIZES, fm.bandwidthMBps(), SIZES[i]);
            fmLatencyUs[i] = at(VirtualFmBenchmark.LATENCY_SIZES, fm.latencyUs(), SIZES[i]);
        }
        return new Result(machine, latencyUs, mbps, fmLatencyUs, fmMbps);
    }

    /**
     * Interpolates linearly in size between the sweep's points (the FM sweeps have other sizes).
     *
     * @return the value, NaN beyond the sweep's sizes (never a neighbour's value passed off as this size's)
     */
    private static double at(final int[] sizes, final double[] values, final int size) {
        for (int i = 1; i < sizes.length; i++) {
            if (sizes[i] >= size && sizes[i - 1] <= size) {
                final double f = (double) (size - sizes[i - 1]) / (sizes[i] - sizes[i - 1]);
                return values[i - 1] + f * (values[i] - values[i - 1]);
            }
        }
        return Double.NaN;
    }

    /** @return seconds (MPI.wtime) from rank 0's first send to its receipt of rank 1's acknowledgement */
    private static double stream(final int me, final int peer, final byte[] out, final byte[] in, final byte[] ack,
                                 final int size, final int n) throws mpi.MPIException {
        final double t0 = MPI.wtime();
        for (int k = 0; k < n; k++) {
            if (me == 0) {
                MPI.COMM_WORLD.send(out, size, MPI.BYTE, peer, 2);
            } else {
                MPI.COMM_WORLD.recv(in, size, MPI.BYTE, peer, 2);
            }
        }
        if (me == 0) {
            MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, peer, 3);
        } else {
            MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, peer, 3);
        }
        return MPI.wtime() - t0;
    }

    /**
     * The modelled figures.
     *
     * @param machine       the machine, its switches applied
     * @param latencyUs     MPI one-way latency per {@link #SIZES} entry, microseconds
     * @param bandwidthMBps MPI streaming bandwidth per entry, MB/s (10^6)
     * @param fmLatencyUs   FM's one-way latency at the same sizes, microseconds (NaN beyond FM's latency sweep)
     * @param fmMBps        FM's streaming bandwidth at the same sizes, MB/s
     */
    public record Result(MachineModel machine, double[] latencyUs, double[] bandwidthMBps, double[] fmLatencyUs,
                         double[] fmMBps) {
        /**
         * The peak of the MPI bandwidth curve.
         *
         * @return MB/s (10^6)
         */
        public double peakMBps() {
            return Stats.peak(bandwidthMBps);
        }

        /**
         * MPI's bandwidth over FM's, the lowest across the sizes (the MPI-FM paper's Fig. 6 plots it).
         *
         * @return the least efficiency
         */
        public double minEfficiency() {
            double m = Double.MAX_VALUE;
            for (int i = 0; i < SIZES.length; i++) {
                m = Math.min(m, bandwidthMBps[i] / fmMBps[i]);
            }
            return m;
        }
    }
}
