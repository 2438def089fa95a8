package org.jhpvm.apps;

import java.util.BitSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.zip.CRC32C;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.IdleStrategy;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;

/**
 * All-to-all traffic over the emulated fabric, one thread per NIC: each NIC sends its frames round robin to the
 * other NICs (to itself when alone), every frame full, carrying its sequence number on the path and a CRC32C of
 * sequence number and payload in the opaque header. Each NIC drains its receive ring while it sends and checks
 * every frame, so losses, duplicates, reordering and corruption are counted from the receivers' side too.
 * <p>
 * The run ends when every NIC has sent everything, its NIC has nothing left in flight, and every receive ring is
 * empty. A failure on any PE closes the fabric, which ends every other PE's wait, and is rethrown with the PE.
 */
public final class AllToAllTraffic {
    /** Opaque header: sequence number on the path (8 bytes), CRC32C (4), spare (4). */
    public static final int HEADER_BYTES = 16;
    private static final int PROGRESS_EVERY = 1024;

    private final FabricConfig config;
    private final int framesPerPe;
    private final long timeoutS;

    /**
     * Prepares a run; the fabric itself is created by {@link #run}, so one instance can run several times.
     *
     * @param config      the fabric: NIC count (one PE thread each), frame size, rings and fault plan; its opaque
     *                    header must hold {@link #HEADER_BYTES}
     * @param framesPerPe frames each NIC sends, spread round robin over the other NICs
     * @param timeoutS    seconds the whole run may take before it fails
     * @throws IllegalArgumentException if the header is shorter than {@link #HEADER_BYTES} bytes or the frame size
     *                                  is not positive
     */
    public AllToAllTraffic(final FabricConfig config, final int framesPerPe, final long timeoutS) {
        if (config.headerBytes() < HEADER_BYTES) {
            throw new IllegalArgumentException("headerBytes=" + config.headerBytes() + " below the " + HEADER_BYTES
                + " the traffic needs");
        }
        if (config.frameBytes() < 1) {
            throw new IllegalArgumentException("frameBytes=" + config.frameBytes() + " must be positive");
        }
        this.config = config;
        this.framesPerPe = framesPerPe;
        this.timeoutS = timeoutS;
    }

    /**
     * Frames NIC {@code src} sends to NIC {@code dst} in this pattern: {@code framesPerPe} split over the other NICs
     * as round robin deals them (the first {@code framesPerPe % (n - 1)} NICs after {@code src} get one more), none
     * to itself, except that a lone NIC sends them all to itself. The receivers use it to know what to expect.
     *
     * @param src the sending NIC, 0 to nicCount - 1
     * @param dst the receiving NIC, 0 to nicCount - 1
     * @return the number of frames on that path
     */
    public long framesOnPath(final int src, final int dst) {
        final int n = config.nicCount();
        if (n == 1) {
            return framesPerPe;
        }
        if (src == dst) {
            return 0;
        }
        final int k = Math.floorMod(dst - src - 1, n);
        return framesPerPe / (n - 1) + (k < framesPerPe % (n - 1) ? 1 : 0);
    }

    /**
     * Runs the traffic once: creates the fabric, starts one daemon thread per NIC, waits until every NIC has sent
     * its frames, has none left in flight and has drained its receive ring, then closes the fabric.
     *
     * @param progress told, from the PE threads concurrently (so it must be thread-safe), how many more frames a PE
     *                 has sent: in steps of 1024 and a final remainder, adding up to nicCount * framesPerPe
     * @return the NICs' counters and what the receivers found
     * @throws InterruptedException  if this thread is interrupted while it waits for the PE threads
     * @throws IllegalStateException if a PE fails or the run exceeds the timeout (the message names the PE and what
     *                               happened); the fabric is closed, which ends every other PE's wait
     */
    @SuppressWarnings("try") // the fabric is closed early on purpose: closing ends every other PE's wait
    public Result run(final IntConsumer progress) throws InterruptedException {
        final int n = config.nicCount();
        final Pe[] pes = new Pe[n];
        final Thread[] threads = new Thread[n];
        final AtomicInteger done = new AtomicInteger();
        final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        final long t0;
        final long elapsedNs;
        try (Fabric fabric = EmulatedMyrinet.create(config)) {
            for (int i = 0; i < n; i++) {
                pes[i] = new Pe(fabric, i, done, deadlineNs, progress);
                final Pe pe = pes[i];
                threads[i] = new Thread(() -> {
                    try {
                        pe.run();
                    } catch (final FabricClosedException e) {
                        failure.compareAndSet(null, new IllegalStateException("PE " + pe.me + ": " + e.getMessage(),
                            e));
                    } catch (final RuntimeException | Error e) {
                        failure.compareAndSet(null, new IllegalStateException("PE " + pe.me + " failed: " + e, e));
                        fabric.close(); // ends every other PE's wait
                    }
                }, "pe-" + i);
                threads[i].setDaemon(true);
            }
            t0 = System.nanoTime();
            for (final Thread t : threads) {
                t.start();
            }
            for (final Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()) + 1000));
                if (t.isAlive()) {
                    fabric.close();
                    t.join(5_000);
                }
            }
            elapsedNs = System.nanoTime() - t0;
            if (failure.get() != null) {
                throw failure.get();
            }
            final NicCounters[] perNic = new NicCounters[n];
            for (int i = 0; i < n; i++) {
                perNic[i] = fabric.nic(i).counters();
            }
            long accepted = 0;
            long crc = 0;
            long dups = 0;
            long ooo = 0;
            long missing = 0;
            for (final Pe pe : pes) {
                accepted += pe.accepted;
                crc += pe.crcFailures;
                dups += pe.duplicates;
                ooo += pe.outOfOrder;
                missing += pe.missing();
            }
            return new Result(perNic, fabric.totals(), accepted, crc, dups, ooo, missing, elapsedNs);
        }
    }

    /** One PE: a thread that sends its share and checks what it receives. */
    private final class Pe {
        private final int me;
        private final Nic nic;
        private final int n;
        private final AtomicInteger done;
        private final long deadlineNs;
        private final IntConsumer progress;
        private final IdleStrategy idle;
        private final CRC32C crc = new CRC32C();
        private final byte[] pattern;
        private final long[] nextSeq;
        private final long[] expected;
        private final BitSet[] seen;
        long accepted;
        long crcFailures;
        long duplicates;
        long outOfOrder;

        Pe(final Fabric fabric, final int me, final AtomicInteger done, final long deadlineNs,
           final IntConsumer progress) {
            this.me = me;
            this.nic = fabric.nic(me);
            this.n = fabric.nicCount();
            this.done = done;
            this.deadlineNs = deadlineNs;
            this.progress = progress;
            this.idle = config.newIdleStrategy();
            this.pattern = new byte[config.frameBytes()];
            new SplittableRandom(me).nextBytes(pattern);
            this.nextSeq = new long[n];
            this.expected = new long[n];
            this.seen = new BitSet[n];
            for (int src = 0; src < n; src++) {
                seen[src] = new BitSet((int) Math.min(Integer.MAX_VALUE, framesOnPath(src, me)));
            }
        }

        void run() {
            int sent = 0;
            Frame waiting = null;
            boolean finished = false;
            while (true) {
                int work = 0;
                if (sent < framesPerPe) {
                    if (waiting == null) {
                        waiting = fill(nic.tryAcquire(), sent);
                    }
                    if (waiting != null && nic.trySend(waiting)) {
                        waiting = null;
                        work++;
                        if (++sent % PROGRESS_EVERY == 0) {
                            progress.accept(PROGRESS_EVERY);
                        }
                    }
                } else if (!finished && nic.pendingFrames() == 0) {
                    finished = true;
                    progress.accept(sent % PROGRESS_EVERY);
                    done.incrementAndGet();
                }
                work += drain();
                if (finished && done.get() == n && work == 0 && drain() == 0) {
                    return; // everyone has sent everything and nothing is in flight: the ring stays empty
                }
                if (System.nanoTime() - deadlineNs > 0) {
                    throw new IllegalStateException("PE " + me + " timed out: sent " + sent + " of " + framesPerPe
                        + ", " + nic.pendingFrames() + " in flight, " + done.get() + " of " + n + " PEs done");
                }
                idle.idle(work + nic.progress());
            }
        }

        private Frame fill(final Frame frame, final int index) {
            if (frame == null) {
                return null;
            }
            final int dst = n == 1 ? me : (me + 1 + index % (n - 1)) % n;
            final long seq = nextSeq[dst]++;
            final int lengthBytes = config.frameBytes();
            frame.setDestination(dst).setLength(lengthBytes);
            frame.putHeaderLong(0, seq);
            frame.putPayload(0, pattern, 0, lengthBytes);
            frame.putHeaderInt(8, checksum(frame));
            return frame;
        }

        private int checksum(final Frame frame) {
            crc.reset();
            crc.update(frame.array(), frame.headerOffset(), Long.BYTES);
            crc.update(frame.array(), frame.payloadOffset(), frame.length());
            return (int) crc.getValue();
        }

        private int drain() {
            int received = 0;
            Frame frame;
            while (received < 64 && (frame = nic.poll()) != null) {
                check(frame);
                nic.release(frame);
                received++;
            }
            return received;
        }

        private void check(final Frame frame) {
            final int src = frame.source();
            final long seq = frame.getHeaderLong(0);
            if (frame.getHeaderInt(8) != checksum(frame) || seq < 0 || seq >= framesOnPath(src, me)) {
                crcFailures++;
                return;
            }
            accepted++;
            if (seen[src].get((int) seq)) {
                duplicates++;
                return;
            }
            seen[src].set((int) seq);
            if (seq != expected[src]) {
                outOfOrder++;
            }
            expected[src] = Math.max(expected[src], seq + 1);
        }

        long missing() {
            long missing = 0;
            for (int src = 0; src < n; src++) {
                missing += framesOnPath(src, me) - seen[src].cardinality();
            }
            return missing;
        }
    }

    /**
     * The outcome of one run.
     *
     * @param perNic      each NIC's counters
     * @param totals      the counters added up
     * @param accepted    frames that passed the receivers' CRC32C check (duplicates included)
     * @param crcFailures frames the receivers rejected as corrupt
     * @param duplicates  frames seen a second time
     * @param outOfOrder  first arrivals that were not the next expected on their path
     * @param missing     frames never seen intact
     * @param elapsedNs   wall time of the run
     */
    public record Result(NicCounters[] perNic, NicCounters totals, long accepted, long crcFailures, long duplicates,
                  long outOfOrder, long missing, long elapsedNs) {
        /**
         * Whether the receivers saw a perfect run: nothing corrupt, duplicated, out of order or missing, and as many
         * frames accepted as were sent.
         *
         * @return true if every frame arrived exactly once, intact and in order
         */
        public boolean clean() {
            return crcFailures == 0 && duplicates == 0 && outOfOrder == 0 && missing == 0
                && accepted == totals.framesSent();
        }

        /**
         * Throughput in frames: every frame that arrived in a receive ring (duplicates and corrupt ones included, as
         * the NICs count them) over the wall time of the run.
         *
         * @return frames per second
         */
        public double framesPerSecond() {
            return totals.framesReceived() * 1e9 / elapsedNs;
        }

        /**
         * Throughput in payload bytes: the payload of every frame that arrived in a receive ring over the wall time
         * of the run.
         *
         * @return MB/s (10^6 bytes per second)
         */
        public double megabytesPerSecond() {
            return totals.bytesReceived() * 1e3 / elapsedNs;
        }
    }
}
