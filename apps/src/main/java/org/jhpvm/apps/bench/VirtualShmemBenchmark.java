package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;

import org.jhpvm.fabric.ClockSettings;
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
 * of this machine's CPU time counts.
 */
public final class VirtualShmemBenchmark {
    /** Sizes, bytes. */
    public static final int[] SIZES = {8, 64, 512, 4096, 65536};

    private final ClockSettings clock;
    private final int rounds;
    private final int puts;

    /**
     * Keeps the settings; nothing runs until {@link #run}.
     *
     * @param clock  a virtual clock
     * @param rounds round trips (and gets, fetch-adds) per size
     * @param puts   puts of the stream per size
     */
    public VirtualShmemBenchmark(final ClockSettings clock, final int rounds, final int puts) {
        if (!clock.virtual() || rounds < 1 || puts < 1) {
            throw new IllegalArgumentException("the virtual-time bench needs a virtual clock, rounds >= 1, puts >= 1");
        }
        this.clock = new ClockSettings(true, clock.machine(), clock.switches(), false);
        this.rounds = rounds;
        this.puts = puts;
    }

    /**
     * Runs the job.
     *
     * @param progress told of each finished size
     * @return the modelled figures
     */
    public Result run(final IntConsumer progress) {
        final MachineModel machine = clock.model();
        final int frameBytes = machine.packetBytes() > 0 ? machine.packetBytes() : VirtualFmBenchmark.MESSAGE_FRAME_BYTES;
        final double[] pingPongUs = new double[SIZES.length];
        final double[] getUs = new double[SIZES.length];
        final double[] putUs = new double[SIZES.length];
        final double[] fetchAddUs = new double[1];
        final ShmemJob.Builder job = ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(30)).inProcess()
            .option("fabric.frameBytes", Integer.toString(frameBytes));
        clock.options().forEach(job::option);
        job.build().run(sh -> {
            final int me = sh.myPe();
            final int peer = 1 - me;
            final int max = SIZES[SIZES.length - 1];
            final SymmetricBytes data = sh.mallocBytes(max);
            final SymmetricLongs flag = sh.mallocLongs(2);
            final byte[] buf = new byte[max];
            long seq = 0;
            sh.barrierAll();
            for (int i = 0; i < SIZES.length; i++) {
                final int size = SIZES[i];
                long t0 = VirtualTime.picoTime();
                for (int k = 0; k < rounds; k++) {
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
                long get = 0;
                long stream = 0;
                if (me == 0) {
                    t0 = VirtualTime.picoTime();
                    for (int k = 0; k < rounds; k++) {
                        data.get(peer, 0, buf, 0, size);
                    }
                    get = VirtualTime.picoTime() - t0;
                    t0 = VirtualTime.picoTime();
                    for (int k = 0; k < puts; k++) {
                        data.putNbi(peer, 0, buf, 0, size);
                    }
                    sh.quiet();
                    stream = VirtualTime.picoTime() - t0;
                    if (i == 0) {
                        t0 = VirtualTime.picoTime();
                        for (int k = 0; k < rounds; k++) {
                            flag.atomicFetchAdd(peer, 1, 1);
                        }
                        fetchAddUs[0] = (VirtualTime.picoTime() - t0) / 1e6 / rounds;
                    }
                }
                sh.barrierAll();
                if (me == 0) {
                    pingPongUs[i] = ping / 1e6 / (2.0 * rounds);
                    getUs[i] = get / 1e6 / rounds;
                    putUs[i] = stream / 1e6 / puts;
                    progress.accept(1);
                }
            }
        });
        return new Result(machine, pingPongUs, getUs, putUs, fetchAddUs[0]);
    }

    /**
     * The modelled figures, per {@link #SIZES} entry.
     *
     * @param machine    the machine, its switches applied
     * @param pingPongUs one-way time of a put and its flag, waited for, microseconds
     * @param getUs      a blocking get, microseconds
     * @param putUs      per put of a stream of non-blocking puts closed by a quiet, microseconds
     * @param fetchAddUs a fetch-and-add of a long, microseconds
     */
    public record Result(MachineModel machine, double[] pingPongUs, double[] getUs, double[] putUs,
                         double fetchAddUs) {
        /**
         * The stream's bandwidth at one entry.
         *
         * @param i the entry of {@link #SIZES}
         * @return MB/s (10^6)
         */
        public double putMBps(final int i) {
            return SIZES[i] / putUs[i];
        }
    }
}
