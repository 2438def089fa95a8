package org.jhpvm.apps.bench;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.IntConsumer;

import org.jhpvm.fabric.Completion;
import org.jhpvm.fabric.CompletionQueue;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.RdmaCounters;
import org.jhpvm.fabric.WorkDescriptor;

/**
 * {@code bench via}: the emulated Myrinet's NIC as a processor (the VIA model) between 2 NICs against
 * {@code System.arraycopy} of the same bytes, measured in one run, on one thread.
 * <ul>
 *   <li>RDMA write and read latency: post one descriptor, wait for its completion, the mean per op over many ops;
 *       baseline: one {@code System.arraycopy} of the same bytes between the same two arrays, the mean per copy;</li>
 *   <li>RDMA write and read bandwidth: a stream of posts kept within the completion queue's capacity, then drained,
 *       again and again; baseline: a stream of copies;</li>
 *   <li>registration, register + deregister of a buffer of each size: named (the caller's handle and key, never
 *       cached), a cache miss (the NIC chooses handle and key for a buffer not registered) and a cache hit (the
 *       buffer is registered already).</li>
 * </ul>
 * The RDMA buffers are one array at each NIC, as large as the largest size, registered once; a transfer of n bytes
 * moves their first n bytes, and the copies move the same bytes between the same arrays. The emulated NIC has no
 * thread: it carries out a request inside {@link Nic#post} on the posting host's thread, reaching into the target's
 * registered memory itself, so the target host runs nothing (no thread of this benchmark ever calls NIC 1 after
 * registering its buffer) and the completion is already queued when {@code post} returns; the result counts how
 * many were ({@link Result#completionsReadyAtPost}). Each figure is the median over {@code trials} passes after
 * {@code warmups} discarded ones; each ratio is the median of the per-pass ratios of figures measured back to back
 * (which goes first alternates).
 */
public final class ViaBenchmark {
    private static final int[] SIZES = {8, 64, 512, 4096, 32768, 65536, 262144, 1 << 20, 4 << 20, 16 << 20};
    private static final int MIN_LATENCY_OPS = 4;
    private static final int MIN_STREAM_OPS = 8;
    private static final int MAX_STREAM_OPS = 200_000;
    private static final long WAIT_NS = 10_000_000_000L;
    private static final int NAMED_HANDLE = 4242;
    private static final int NAMED_KEY = 0x5eed;

    private static final int WRITE_NS = 0;
    private static final int READ_NS = 1;
    private static final int COPY_NS = 2;
    private static final int WRITE_MBPS = 3;
    private static final int READ_MBPS = 4;
    private static final int COPY_MBPS = 5;
    private static final int REG_NAMED = 6;
    private static final int REG_MISS = 7;
    private static final int REG_HIT = 8;
    private static final int FIGURES = 9;

    private final FabricConfig config;
    private final int trials;
    private final int warmups;
    private final int ops;
    private final long bytesPerPoint;
    private final int registrations;

    private final Completion completion = new Completion();
    private final WorkDescriptor descriptor = new WorkDescriptor();
    private long completions;
    private long latencyCompletions;
    private long readyAtPost;

    /**
     * Checks and keeps the settings; nothing is created until {@link #run}.
     *
     * @param config        fabric settings (2 NICs, no faults)
     * @param trials        measured passes, at least 1
     * @param warmups       discarded passes before them, at least 0
     * @param ops           RDMA ops (and copies) per latency point at small sizes, at least 1; fewer at large sizes,
     *                      so that a point moves at most {@code bytesPerPoint} (but at least 4 ops)
     * @param bytesPerPoint bytes per bandwidth point, at least 1 (each point streams between 8 and 200,000 ops
     *                      whatever this asks); also the cap of a latency point
     * @param registrations register + deregister pairs per registration point, at least 1
     * @throws IllegalArgumentException if the fabric does not have exactly 2 NICs, has a fault plan, or a count is
     *                                  out of range
     */
    public ViaBenchmark(final FabricConfig config, final int trials, final int warmups, final int ops,
                        final long bytesPerPoint, final int registrations) {
        if (config.nicCount() != 2 || !config.faultPlan().isNone()) {
            throw new IllegalArgumentException("bench via needs 2 NICs and no faults, got " + config.nicCount()
                + " NICs, faults=" + !config.faultPlan().isNone());
        }
        if (trials < 1 || warmups < 0 || ops < 1 || bytesPerPoint < 1 || registrations < 1) {
            throw new IllegalArgumentException("trials=" + trials + " >= 1, warmups=" + warmups + " >= 0, ops=" + ops
                + " >= 1, bytesPerPoint=" + bytesPerPoint + " >= 1 and registrations=" + registrations
                + " >= 1 required");
        }
        this.config = config;
        this.trials = trials;
        this.warmups = warmups;
        this.ops = ops;
        this.bytesPerPoint = bytesPerPoint;
        this.registrations = registrations;
    }

    /**
     * The sizes of every sweep, ascending, in the order of the result's per-size arrays.
     *
     * @return sizes measured, bytes: 8 B to 16 MiB (powers of 8, and 4 KiB, 64 KiB, 1 MiB, 4 MiB)
     */
    public static int[] sizes() {
        return SIZES.clone();
    }

    /**
     * The length of a progress bar for {@link #run(IntConsumer)}: per pass, one step per size for the transfers and
     * one for the registrations.
     *
     * @return number of progress steps {@link #run(IntConsumer)} reports
     */
    public int steps() {
        return (warmups + trials) * 2 * SIZES.length;
    }

    /**
     * RDMA ops (or copies) per latency point.
     *
     * @param size bytes per op
     * @return {@code ops}, or fewer so that the point moves at most {@code bytesPerPoint}, but at least 4
     */
    public int latencyOps(final int size) {
        return (int) Math.max(MIN_LATENCY_OPS, Math.min(ops, bytesPerPoint / size));
    }

    /**
     * RDMA ops (or copies) per bandwidth point.
     *
     * @param size bytes per op
     * @return {@code bytesPerPoint / size}, kept within 8 .. 200,000
     */
    public int streamOps(final int size) {
        return (int) Math.max(MIN_STREAM_OPS, Math.min(MAX_STREAM_OPS, bytesPerPoint / size));
    }

    /**
     * Runs every measurement: {@code warmups + trials} passes over every size, each measuring the RDMA latencies and
     * the copy latency, then the RDMA bandwidths and the copy bandwidth, back to back; then the registrations.
     *
     * @param progress told after each size of each pass (argument 1)
     * @return the medians
     * @throws IllegalStateException if a transfer completes with an error or moves other bytes than asked
     */
    public Result run(final IntConsumer progress) {
        final int passes = warmups + trials;
        final int max = SIZES[SIZES.length - 1];
        final double[][][] fig = new double[FIGURES][SIZES.length][passes];
        completions = 0;
        latencyCompletions = 0;
        readyAtPost = 0;
        try (Fabric fabric = EmulatedMyrinet.create(config)) {
            if (!fabric.capabilities().remoteDma()) {
                throw new IllegalStateException("the emulated Myrinet offers no RDMA");
            }
            final Nic a = fabric.nic(0);
            final Nic b = fabric.nic(1);
            final byte[] src = new byte[max];
            final byte[] dst = new byte[max];
            for (int i = 0; i < max; i++) {
                src[i] = (byte) (i * 31 + 7);
            }
            final MemoryRegion local = a.register(src);
            final MemoryRegion remote = b.register(dst);
            final byte[][] buffers = new byte[SIZES.length][];
            for (int i = 0; i < SIZES.length; i++) {
                buffers[i] = new byte[SIZES[i]];
            }
            final RdmaCounters before = b.rdmaCounters();
            for (int pass = 0; pass < passes; pass++) {
                if (pass == warmups) {
                    settle();
                }
                final boolean baselineFirst = (pass & 1) == 0;
                for (int i = 0; i < SIZES.length; i++) {
                    transfers(a, local, remote, src, dst, i, pass, baselineFirst, fig);
                    progress.accept(1);
                }
                for (int i = 0; i < SIZES.length; i++) {
                    fig[REG_NAMED][i][pass] = namedNs(a, buffers[i]);
                    fig[REG_MISS][i][pass] = missNs(a, buffers[i]);
                    fig[REG_HIT][i][pass] = hitNs(a, buffers[i]);
                    progress.accept(1);
                }
            }
            final RdmaCounters target = b.rdmaCounters();
            final RdmaCounters initiator = a.rdmaCounters();
            if (!target.equals(before) || initiator.errors() != 0 || initiator.rdmaWrites() + initiator.rdmaReads()
                != completions) {
                throw new IllegalStateException("unexpected NIC counters: initiator " + initiator + ", target "
                    + target + " (before: " + before + "), " + completions + " completions");
            }
            a.deregister(local);
            b.deregister(remote);
        }
        return result(fig);
    }

    private Result result(final double[][][] fig) {
        final double[][] measured = new double[FIGURES][];
        for (int f = 0; f < FIGURES; f++) {
            final double[][] bySize = new double[SIZES.length][];
            for (int i = 0; i < SIZES.length; i++) {
                bySize[i] = Arrays.copyOfRange(fig[f][i], warmups, warmups + trials);
            }
            measured[f] = Stats.medians(bySize);
        }
        return new Result(sizes(), measured[WRITE_NS], measured[READ_NS], measured[COPY_NS], measured[WRITE_MBPS],
            measured[READ_MBPS], measured[COPY_MBPS], ratios(fig, WRITE_NS, COPY_NS), ratios(fig, READ_NS, COPY_NS),
            ratios(fig, WRITE_MBPS, COPY_MBPS), ratios(fig, READ_MBPS, COPY_MBPS), measured[REG_NAMED],
            measured[REG_MISS], measured[REG_HIT], latencyCompletions, readyAtPost, trials);
    }

    /** Per size, the median over the measured passes of figure {@code num} / figure {@code den} of the pass. */
    private double[] ratios(final double[][][] fig, final int num, final int den) {
        final double[] r = new double[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            final double[] perPass = new double[trials];
            for (int t = 0; t < trials; t++) {
                perPass[t] = fig[num][i][warmups + t] / fig[den][i][warmups + t];
            }
            r[i] = Stats.median(perPass);
        }
        return r;
    }

    /** One size of one pass: latencies, then bandwidths, the copies first or last. */
    private void transfers(final Nic a, final MemoryRegion local, final MemoryRegion remote, final byte[] src,
                           final byte[] dst, final int i, final int pass, final boolean baselineFirst,
                           final double[][][] fig) {
        final int size = SIZES[i];
        final int latencyOps = latencyOps(size);
        final int streamOps = streamOps(size);
        final long tag = (long) pass << 32 | i;
        if (baselineFirst) {
            fig[COPY_NS][i][pass] = FabricBenchmark.copyNs(src, dst, size, latencyOps) / latencyOps;
        }
        stamp(local, size, tag);
        fig[WRITE_NS][i][pass] = latencyNs(a, WorkDescriptor.RDMA_WRITE, local, remote, size, latencyOps);
        checkStamp(remote, size, tag, "RDMA write");
        stamp(remote, size, ~tag);
        fig[READ_NS][i][pass] = latencyNs(a, WorkDescriptor.RDMA_READ, local, remote, size, latencyOps);
        checkStamp(local, size, ~tag, "RDMA read");
        if (!baselineFirst) {
            fig[COPY_NS][i][pass] = FabricBenchmark.copyNs(src, dst, size, latencyOps) / latencyOps;
        }
        final double streamBytes = (double) streamOps * size * 1e3;
        if (baselineFirst) {
            fig[COPY_MBPS][i][pass] = streamBytes / FabricBenchmark.copyNs(src, dst, size, streamOps);
        }
        stamp(local, size, tag + 1);
        fig[WRITE_MBPS][i][pass] = streamBytes / streamNs(a, WorkDescriptor.RDMA_WRITE, local, remote, size,
            streamOps);
        checkStamp(remote, size, tag + 1, "RDMA write stream");
        stamp(remote, size, ~tag - 1);
        fig[READ_MBPS][i][pass] = streamBytes / streamNs(a, WorkDescriptor.RDMA_READ, local, remote, size,
            streamOps);
        checkStamp(local, size, ~tag - 1, "RDMA read stream");
        if (!baselineFirst) {
            fig[COPY_MBPS][i][pass] = streamBytes / FabricBenchmark.copyNs(src, dst, size, streamOps);
        }
    }

    /** Posts one descriptor at a time and waits for its completion; the mean ns per op. */
    private double latencyNs(final Nic nic, final int op, final MemoryRegion local, final MemoryRegion remote,
                             final int size, final int n) {
        final CompletionQueue cq = nic.completionQueue();
        long waited = 0;
        final long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            if (!nic.post(fill(op, local, remote, size, k))) {
                throw new IllegalStateException("the completion queue refused a post with nothing outstanding");
            }
            if (!cq.poll(completion)) {
                waited++;
                await(cq);
            }
            check(op, size, k);
        }
        final long elapsed = System.nanoTime() - t0;
        completions += n;
        latencyCompletions += n;
        readyAtPost += n - waited;
        return (double) elapsed / n;
    }

    /** Posts until the completion queue is full (or all are posted), drains it, again; the total ns. */
    private double streamNs(final Nic nic, final int op, final MemoryRegion local, final MemoryRegion remote,
                            final int size, final int n) {
        final CompletionQueue cq = nic.completionQueue();
        final int window = cq.capacity();
        int posted = 0;
        int completed = 0;
        final long t0 = System.nanoTime();
        while (completed < n) {
            while (posted < n && posted - completed < window && nic.post(fill(op, local, remote, size, posted))) {
                posted++;
            }
            if (!cq.poll(completion)) {
                await(cq);
            }
            check(op, size, completed++);
            while (completed < posted && cq.poll(completion)) {
                check(op, size, completed++);
            }
        }
        final long elapsed = System.nanoTime() - t0;
        completions += n;
        return elapsed;
    }

    private WorkDescriptor fill(final int op, final MemoryRegion local, final MemoryRegion remote, final int size,
                                final long context) {
        return op == WorkDescriptor.RDMA_WRITE
            ? descriptor.rdmaWrite(local, 0, remote.nic(), remote.handle(), remote.key(), 0, size, context)
            : descriptor.rdmaRead(local, 0, remote.nic(), remote.handle(), remote.key(), 0, size, context);
    }

    private void await(final CompletionQueue cq) {
        if (!cq.await(completion, WAIT_NS)) {
            throw new IllegalStateException("no completion within " + WAIT_NS / 1_000_000_000L + " s");
        }
    }

    private void check(final int op, final int size, final long context) {
        final Completion c = completion;
        if (!c.ok() || c.op() != op || c.lengthBytes() != size || c.context() != context) {
            throw new IllegalStateException("completion " + c + " for op " + op + ", " + size + " bytes, context "
                + context);
        }
    }

    /** Puts a tag into a region's first and last 8 bytes of {@code size} (the first only, if size is 8). */
    private static void stamp(final MemoryRegion region, final int size, final long tag) {
        region.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, tag);
        region.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, size - 8, tag);
    }

    private static void checkStamp(final MemoryRegion region, final int size, final long tag, final String what) {
        if (region.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) != tag
            || region.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, size - 8) != tag) {
            throw new IllegalStateException(what + " of " + size + " bytes did not land");
        }
    }

    /**
     * Register + deregister under the caller's handle and key: never cached, so the NIC keeps nothing of the buffer
     * between rounds and each round is the registration of a buffer it has not seen.
     */
    private double namedNs(final Nic nic, final byte[] buffer) {
        final long t0 = System.nanoTime();
        for (int k = 0; k < registrations; k++) {
            nic.deregister(nic.register(buffer, NAMED_HANDLE, NAMED_KEY));
        }
        return (double) (System.nanoTime() - t0) / registrations;
    }

    /** Register + deregister of a buffer not registered: a cache miss, the NIC chooses handle and key. */
    private double missNs(final Nic nic, final byte[] buffer) {
        final long hits = nic.rdmaCounters().cacheHits();
        final long t0 = System.nanoTime();
        for (int k = 0; k < registrations; k++) {
            nic.deregister(nic.register(buffer));
        }
        final double ns = (double) (System.nanoTime() - t0) / registrations;
        if (nic.rdmaCounters().cacheHits() != hits) {
            throw new IllegalStateException("a registration of a buffer not registered hit the cache");
        }
        return ns;
    }

    /** Register + deregister of a buffer registered already: a cache hit. */
    private double hitNs(final Nic nic, final byte[] buffer) {
        final MemoryRegion held = nic.register(buffer);
        final long hits = nic.rdmaCounters().cacheHits();
        final long t0 = System.nanoTime();
        for (int k = 0; k < registrations; k++) {
            final MemoryRegion again = nic.register(buffer);
            if (again != held) {
                throw new IllegalStateException("a registered buffer registered again got another region");
            }
            nic.deregister(again);
        }
        final double ns = (double) (System.nanoTime() - t0) / registrations;
        nic.deregister(held);
        if (nic.rdmaCounters().cacheHits() != hits + registrations) {
            throw new IllegalStateException("registrations of a registered buffer missed the cache");
        }
        return ns;
    }

    /** Gives the JIT compiler threads the cores for a moment after the warm-up. */
    private static void settle() {
        try {
            Thread.sleep(300);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("benchmark interrupted", e);
        }
    }

    /**
     * The medians of one run, per size in the order of {@link #sizes()}.
     *
     * @param sizes                   bytes per transfer (and per registered buffer)
     * @param writeNs                 RDMA write latency, post to completion, ns per op
     * @param readNs                  RDMA read latency, post to completion, ns per op
     * @param arraycopyNs             {@code System.arraycopy} of the same bytes, ns per copy
     * @param writeMBps               streamed RDMA write bandwidth, MB/s (10^6 bytes per second)
     * @param readMBps                streamed RDMA read bandwidth, MB/s
     * @param arraycopyMBps           streamed {@code System.arraycopy} bandwidth, MB/s
     * @param writeLatencyRatio       median over trials of write latency / copy latency, measured back to back
     * @param readLatencyRatio        median over trials of read latency / copy latency
     * @param writeBwRatio            median over trials of write bandwidth / copy bandwidth
     * @param readBwRatio             median over trials of read bandwidth / copy bandwidth
     * @param registerUncachedNs      named register + deregister, ns (never cached)
     * @param registerMissNs          register + deregister of a buffer not registered (a cache miss), ns
     * @param registerCachedNs        register + deregister of a buffer registered already (a cache hit), ns
     * @param latencyCompletions      completions of the latency ops, warm-ups included
     * @param completionsReadyAtPost  of those, the ones already queued when {@code post} returned (the emulated
     *                                NIC works on the posting thread: all of them)
     * @param trials                  measured passes per figure
     */
    public record Result(int[] sizes, double[] writeNs, double[] readNs, double[] arraycopyNs, double[] writeMBps,
                         double[] readMBps, double[] arraycopyMBps, double[] writeLatencyRatio,
                         double[] readLatencyRatio, double[] writeBwRatio, double[] readBwRatio,
                         double[] registerUncachedNs, double[] registerMissNs, double[] registerCachedNs,
                         long latencyCompletions, long completionsReadyAtPost, int trials) {

        /**
         * The streamed RDMA write's peak bandwidth, r_inf: the highest median over the sizes.
         *
         * @return peak RDMA write bandwidth over the sizes, MB/s
         */
        public double writePeakMBps() {
            return Stats.peak(writeMBps);
        }

        /**
         * The streamed RDMA write's half-power point (see {@link Stats#halfPowerPoint}).
         *
         * @return n1/2 of the RDMA write bandwidth curve, bytes
         */
        public double writeHalfPowerBytes() {
            return Stats.halfPowerPoint(sizes, writeMBps);
        }
    }
}
