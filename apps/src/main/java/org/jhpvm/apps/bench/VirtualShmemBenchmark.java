package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fabric.timing.MachineModel;
import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricBytes;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * SHMEM on 2 PEs in virtual time ({@code bench shmem --clock virtual}): the programs users write, timed on the
 * modelled machine's clock. A put followed by a flag the other PE waits on ({@code wait_until}), answered the same
 * way (one-way time: half a round); a blocking get; a fetch-and-add; a stream of non-blocking puts closed by a quiet
 * (per-put time, hence bandwidth). SHMEM's requests travel as FM messages (the virtual fabric has no RDMA); nothing
 * of this machine's CPU time counts. The same program runs on the wall clock ({@link #check}) to compare a model
 * calibrated here with this machine.
 */
public final class VirtualShmemBenchmark {
    /** Sizes, bytes. */
    public static final int[] SIZES = {8, 64, 512, 4096, 65536};
    /** Sizes of the comparison with the wall clock on a machine calibrated here, bytes. */
    public static final int[] CHECK_SIZES = {8, 64, 512, 4096, 65536, 1 << 20, 4 << 20};

    private final ClockSettings clock;
    private final int[] sizes;
    private final IntUnaryOperator rounds;
    private final IntUnaryOperator puts;

    /**
     * Keeps the settings; nothing runs until {@link #run}.
     *
     * @param clock  a virtual clock
     * @param rounds round trips (and gets, fetch-adds) per size
     * @param puts   puts of the stream per size
     */
    public VirtualShmemBenchmark(final ClockSettings clock, final int rounds, final int puts) {
        this(clock, SIZES, size -> rounds, size -> puts);
        if (!clock.virtual() || rounds < 1 || puts < 1) {
            throw new IllegalArgumentException("the virtual-time bench needs a virtual clock, rounds >= 1, puts >= 1");
        }
    }

    /**
     * The same program on either clock over {@link #CHECK_SIZES}, each point moving about {@code bytesPerPoint}
     * (8 to 1000 round trips, 16 to 2000 puts): the comparison of a calibrated model with this machine.
     *
     * @param clock         a virtual clock, or {@link ClockSettings#WALL}
     * @param bytesPerPoint bytes per point
     * @return the bench
     */
    public static VirtualShmemBenchmark check(final ClockSettings clock, final long bytesPerPoint) {
        return new VirtualShmemBenchmark(clock, CHECK_SIZES,
            size -> (int) Math.max(8, Math.min(1000, bytesPerPoint / 4 / size)),
            size -> (int) Math.max(16, Math.min(2000, bytesPerPoint / size)));
    }

    private VirtualShmemBenchmark(final ClockSettings clock, final int[] sizes, final IntUnaryOperator rounds,
                                  final IntUnaryOperator puts) {
        this.clock = clock.virtual() ? new ClockSettings(true, clock.machine(), clock.switches(), false) : clock;
        this.sizes = sizes.clone();
        this.rounds = rounds;
        this.puts = puts;
    }

    /**
     * Runs the job: one pass (virtual time: the same inputs give the same times).
     *
     * @param progress told of each finished size
     * @return the modelled figures
     */
    public Result run(final IntConsumer progress) {
        return run(0, 1, progress);
    }

    /**
     * Runs the job: {@code warmups} passes over the sizes not counted, then {@code trials} passes; every figure is
     * the median of its trials.
     *
     * @param warmups  passes not counted
     * @param trials   passes counted, at least 1
     * @param progress told of each finished size of each pass
     * @return the figures
     */
    public Result run(final int warmups, final int trials, final IntConsumer progress) {
        if (warmups < 0 || trials < 1) {
            throw new IllegalArgumentException("need warmups >= 0 and trials >= 1");
        }
        final MachineModel machine = clock.virtual() ? clock.model() : null;
        final int frameBytes = machine == null ? FabricConfig.DEFAULT_FRAME_BYTES : machine.packetBytes() > 0
            ? machine.packetBytes() : VirtualFmBenchmark.MESSAGE_FRAME_BYTES;
        final int n = sizes.length;
        final double[][] pingPongUs = new double[n][trials];
        final double[][] getUs = new double[n][trials];
        final double[][] putUs = new double[n][trials];
        final double[][] fetchAddUs = new double[1][trials];
        final ShmemJob.Builder job = ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(30)).inProcess()
            .option("fabric.frameBytes", Integer.toString(frameBytes));
        clock.options().forEach(job::option);
        job.build().run(sh -> {
            final int me = sh.myPe();
            final int peer = 1 - me;
            final int max = sizes[n - 1];
            final SymmetricBytes data = sh.mallocBytes(max);
            final SymmetricLongs flag = sh.mallocLongs(2);
            final byte[] buf = new byte[max];
            long seq = 0;
            sh.barrierAll();
            for (int pass = 0; pass < warmups + trials; pass++) {
                final int t = pass - warmups;
                for (int i = 0; i < n; i++) {
                    final int size = sizes[i];
                    final int rt = rounds.applyAsInt(size);
                    long t0 = VirtualTime.picoTime();
                    for (int k = 0; k < rt; k++) {
                        seq++;
                        if (me == 0) {
                            data.put(peer, 0, buf, 0, size);
                            sh.fence(); // the data before its flag
                            flag.p(peer, 0, seq);
                            flag.waitUntil(0, Cmp.GE, seq);
                        } else {
                            flag.waitUntil(0, Cmp.GE, seq);
                            data.put(peer, 0, buf, 0, size);
                            sh.fence();
                            flag.p(peer, 0, seq);
                        }
                    }
                    final long ping = VirtualTime.picoTime() - t0;
                    sh.barrierAll();
                    if (me == 0) {
                        t0 = VirtualTime.picoTime();
                        for (int k = 0; k < rt; k++) {
                            data.get(peer, 0, buf, 0, size);
                        }
                        final long get = VirtualTime.picoTime() - t0;
                        final int np = puts.applyAsInt(size);
                        t0 = VirtualTime.picoTime();
                        for (int k = 0; k < np; k++) {
                            data.putNbi(peer, 0, buf, 0, size);
                        }
                        sh.quiet();
                        final long stream = VirtualTime.picoTime() - t0;
                        long fetchAdd = 0;
                        if (i == 0) {
                            t0 = VirtualTime.picoTime();
                            for (int k = 0; k < rt; k++) {
                                flag.atomicFetchAdd(peer, 1, 1);
                            }
                            fetchAdd = VirtualTime.picoTime() - t0;
                        }
                        if (t >= 0) {
                            pingPongUs[i][t] = ping / 1e6 / (2.0 * rt);
                            getUs[i][t] = get / 1e6 / rt;
                            putUs[i][t] = stream / 1e6 / np;
                            if (i == 0) {
                                fetchAddUs[0][t] = fetchAdd / 1e6 / rt;
                            }
                        }
                        progress.accept(1);
                    }
                    sh.barrierAll();
                }
            }
        });
        return new Result(machine, sizes.clone(), Stats.medians(pingPongUs), Stats.medians(getUs),
            Stats.medians(putUs), Stats.medians(fetchAddUs)[0]);
    }

    /**
     * The figures, per size.
     *
     * @param machine    the machine, its switches applied; null on the wall clock
     * @param sizes      the sizes, bytes
     * @param pingPongUs one-way time of a put and its flag, waited for, microseconds
     * @param getUs      a blocking get, microseconds
     * @param putUs      per put of a stream of non-blocking puts closed by a quiet, microseconds
     * @param fetchAddUs a fetch-and-add of a long, microseconds
     */
    public record Result(MachineModel machine, int[] sizes, double[] pingPongUs, double[] getUs, double[] putUs,
                         double fetchAddUs) {
        /**
         * The stream's bandwidth at one entry.
         *
         * @param i the entry of {@link #sizes}
         * @return MB/s (10^6)
         */
        public double putMBps(final int i) {
            return sizes[i] / putUs[i];
        }
    }
}
