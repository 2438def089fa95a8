package org.jhpvm.apps.bench;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fabric.timing.MachineModel;

/**
 * The fabric itself in virtual time ({@code bench fabric --clock virtual}): raw frames between two NICs of the
 * emulated Myrinet on a modelled machine, no messaging layer above. One-way latency by ping-pong; the per-frame time
 * of a stream closed by one answering frame (its time less the answer's latency and the last frame's, over n - 1),
 * hence bandwidth, r_inf and n1/2: what the machine's stages give before FM adds its own work.
 */
public final class VirtualFabricBenchmark {
    /** Frame payload sizes, bytes (those above the frame size are left out). */
    public static final int[] SIZES = {0, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 16384, 65536};
    private static final long WAIT_NS = 600_000_000_000L;

    private VirtualFabricBenchmark() {
    }

    /**
     * Runs the two NICs, each on a thread of its own.
     *
     * @param clock      a virtual clock
     * @param roundTrips ping-pong round trips per size
     * @param frames     frames of the stream per size
     * @param progress   told of each finished size
     * @return the modelled figures
     * @throws InterruptedException if interrupted while waiting for the NICs' threads
     */
    public static Result run(final ClockSettings clock, final int roundTrips, final int frames,
                             final IntConsumer progress) throws InterruptedException {
        if (!clock.virtual() || roundTrips < 1 || frames < 2) {
            throw new IllegalArgumentException("needs a virtual clock, round trips >= 1 and frames >= 2");
        }
        final ClockSettings declared = new ClockSettings(true, clock.machine(), clock.switches(), false);
        final MachineModel machine = declared.model();
        final int frameBytes = machine.packetBytes() > 0 ? machine.packetBytes()
            : VirtualFmBenchmark.MESSAGE_FRAME_BYTES;
        int fit = 0;
        while (fit < SIZES.length && SIZES[fit] <= frameBytes) {
            fit++;
        }
        final int n = fit;
        final int[] sizes = java.util.Arrays.copyOf(SIZES, n);
        final double[] latencyUs = new double[n];
        final double[] perFrameUs = new double[n];
        final long wallStart = System.nanoTime();
        final FabricConfig.Builder config = FabricConfig.builder(2).frameBytes(frameBytes).clock(declared);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Fabric fabric = EmulatedMyrinet.create(config.build())) {
            // Both NICs take part before either thread starts: a NIC nobody has asked for yet holds nobody back, and
            // the first thread could otherwise run its wait to its deadline before the other has joined.
            fabric.nic(0);
            fabric.nic(1);
            final Thread[] threads = new Thread[2];
            for (int id = 0; id < 2; id++) {
                final int me = id;
                threads[id] = Thread.ofPlatform().name("bench-fabric-virtual-" + id).start(() -> {
                    try {
                        final Nic nic = fabric.nic(me);
                        nic.progress(); // binds this thread to the NIC's clock before the first reading of it
                        final byte[] payload = new byte[frameBytes];
                        for (int i = 0; i < n; i++) {
                            final double oneWay = pingPongUs(nic, me, sizes[i], payload, roundTrips);
                            final double answer = pingPongUs(nic, me, 0, payload, roundTrips);
                            final long streamPs = streamPs(nic, me, sizes[i], payload, frames);
                            if (me == 0) {
                                latencyUs[i] = oneWay;
                                perFrameUs[i] = (streamPs / 1e6 - oneWay - answer) / (frames - 1);
                                progress.accept(1);
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
            }
            for (final Thread t : threads) {
                t.join();
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("bench fabric in virtual time failed: " + failure.get(), failure.get());
        }
        return new Result(machine, frameBytes, sizes, latencyUs, perFrameUs, (System.nanoTime() - wallStart) / 1e9);
    }

    private static void send(final Nic nic, final int to, final int size, final byte[] payload) {
        final Frame f = nic.acquire().setDestination(to).setLength(size);
        if (size > 0) {
            f.putPayload(0, payload, 0, size);
        }
        nic.send(f);
    }

    private static void take(final Nic nic) {
        final Frame f = nic.receive(WAIT_NS);
        if (f == null) {
            throw new IllegalStateException("NIC " + nic.id() + " waited " + WAIT_NS / 1e9 + " s of virtual time");
        }
        nic.release(f);
    }

    /** @return the mean one-way time in microseconds, as NIC 0's clock says */
    private static double pingPongUs(final Nic nic, final int me, final int size, final byte[] payload,
                                     final int n) {
        final long t0 = VirtualTime.picoTime();
        for (int i = 0; i < n; i++) {
            if (me == 0) {
                send(nic, 1, size, payload);
                take(nic);
            } else {
                take(nic);
                send(nic, 0, size, payload);
            }
        }
        return (VirtualTime.picoTime() - t0) / 1e6 / (2.0 * n);
    }

    /** @return picoseconds from NIC 0's first frame to its receipt of NIC 1's answer to the last */
    private static long streamPs(final Nic nic, final int me, final int size, final byte[] payload, final int n) {
        final long t0 = VirtualTime.picoTime();
        if (me == 0) {
            for (int i = 0; i < n; i++) {
                send(nic, 1, size, payload);
            }
            take(nic);
        } else {
            for (int i = 0; i < n; i++) {
                take(nic);
            }
            send(nic, 0, 0, payload);
        }
        return VirtualTime.picoTime() - t0;
    }

    /**
     * The modelled figures, per size.
     *
     * @param machine     the machine, its switches applied
     * @param frameBytes  the frame size of the run
     * @param sizes       payload sizes, bytes
     * @param latencyUs   one-way latency, microseconds
     * @param perFrameUs  per-frame time of a long stream, microseconds
     * @param wallSeconds the wall-clock time the run took
     */
    public record Result(MachineModel machine, int frameBytes, int[] sizes, double[] latencyUs, double[] perFrameUs,
                         double wallSeconds) {
        /**
         * The stream's bandwidth at one size.
         *
         * @param i the entry of {@link #sizes}
         * @return MB/s (10^6 bytes per second)
         */
        public double bandwidthMBps(final int i) {
            return sizes[i] / perFrameUs[i];
        }

        /**
         * The peak bandwidth over the sizes, MB/s.
         *
         * @return the peak bandwidth over the sizes, MB/s
         */
        public double rInfMBps() {
            double peak = 0;
            for (int i = 0; i < sizes.length; i++) {
                peak = Math.max(peak, bandwidthMBps(i));
            }
            return peak;
        }

        /**
         * The half-power point, interpolated, bytes.
         *
         * @return the half-power point, interpolated, bytes
         */
        public double nHalfBytes() {
            final double[] bw = new double[sizes.length];
            for (int i = 0; i < bw.length; i++) {
                bw[i] = bandwidthMBps(i);
            }
            return Stats.halfPowerPoint(sizes, bw);
        }

        /**
         * The one-way latency of an 8-byte frame, microseconds.
         *
         * @return the one-way latency of an 8-byte frame, microseconds
         */
        public double latency8Us() {
            return latencyUs[1];
        }
    }
}
