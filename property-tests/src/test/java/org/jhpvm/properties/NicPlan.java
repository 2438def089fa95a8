package org.jhpvm.properties;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.jhpvm.properties.NicProgram.Op;
import org.jhpvm.properties.NicProgram.Step;

/**
 * A {@link NicProgram} made concrete, with its sequential model: every PE's actions per phase (with the data they
 * send and what each get and fetching atomic must return) and every PE's memory at the end.
 * <p>
 * The program's outcome is defined whatever the timing because of how the memory is laid out and where the plan
 * puts fences and quiets:
 * <ul>
 *   <li>{@code mem} (longs) holds a region per writer, written only by that writer (puts, p, iput, ibput, atomic set,
 *       swap and compare-swap), then an accumulate area every PE accumulates into (wrapping long sums commute);</li>
 *   <li>{@code dacc} (doubles) is accumulated into by everyone with small multiples of 1/16, so every sum is exact
 *       in any order;</li>
 *   <li>{@code log} holds, per writer, the data of its puts with signal to that PE, each at a fresh place, and
 *       {@code sig} a signal per writer, the number of puts with signal it delivered there: whoever sees signal
 *       {@code k} must find the data of the first {@code k};</li>
 *   <li>{@code ctr} holds a fetch-add counter (positive adds: the values fetched must chain), a sum of atomic adds,
 *       and the count of "done" notes a computing PE waits for.</li>
 * </ul>
 * A writer's write overlapping one of its earlier writes to the same PE since the last fence or quiet gets a fence
 * first (OpenSHMEM orders puts, atomics and puts with signal only across a fence); a get of its own region after a
 * write there gets a quiet first, as does a write into a PE while a non-blocking get from it is in flight. A get of
 * another writer's region, or of the accumulate area, is planned only if nobody writes there in the phase (the
 * content is then the one the last barrier settled). The budget caps the bytes moved per program.
 */
final class NicPlan {
    /** The largest range one operation touches: 4 MiB of longs. */
    static final int MAX_EXTENT = 1 << 19;
    /** Elements moved per program, all operations together (16 MiB). */
    static final int BUDGET = 1 << 21;
    /** {@code ctr} elements. */
    static final int CHAIN = 0;
    static final int SUM = 1;
    static final int DONE = 2;
    static final int COUNTERS = 3;
    /** What a get's destination holds where the get must not write. */
    static final long SENTINEL = 0x5EED_5EED_5EED_5EEDL;
    private static final int[] GAPS = {0, 1, 5, 64};
    private static final long[] LONG_ALPHA = {1, -1, 3, (1L << 20) + 1, -7};
    private static final double[] DOUBLE_ALPHA = {1, 0.5, 2, -1, 0.25};

    /**
     * One concrete call. Puts: {@code src} sent to {@code index} at the target; gets: read from {@code index} into a
     * buffer that must then equal {@code expect} (positions the get must not touch hold {@link #SENTINEL}); fetching
     * atomics: {@code expect[0]} is the old value.
     *
     * @param step         what it does
     * @param target       target PE
     * @param index        first element at the target
     * @param remoteStride stride (or block stride) at the target
     * @param localStride  stride (or block stride) in the local buffer
     * @param block        elements per block (block-strided calls)
     * @param count        elements, or blocks for block-strided calls
     * @param src          data sent (longs)
     * @param dsrc         data sent (doubles)
     * @param a            value: p, atomic operand, fetch-add increment, signal, accumulate scale (raw bits)
     * @param b            compare-swap condition; 1 for a signal ADD, 0 for SET
     * @param expect       what a get or fetching atomic must find
     * @param label        where it comes from, for failure messages
     */
    record Action(Step step, int target, int index, int remoteStride, int localStride, int block, int count,
                  long[] src, double[] dsrc, long a, long b, long[] expect, String label) {
    }

    /** A put with signal as its target sees it: where its data lies in {@code log}, and what it is. */
    record Logged(int index, long[] data, String label) {
    }

    /** An operation's geometry after the budget: elements or blocks, strides, block, extent at the target. */
    private record Geo(int count, int remoteStride, int localStride, int block, int extent, int moved) {
    }

    final int pes;
    /** Elements of each writer's region in {@code mem}. */
    final int region;
    /** Elements of the accumulate areas ({@code mem}'s, after the regions, and {@code dacc}). */
    final int accLength;
    final int memLength;
    /** Elements of each writer's put-with-signal log. */
    final int logLength;
    final boolean[][] busy;
    /** [phase][pe]: what the PE runs in the phase (nothing when busy). */
    final List<List<List<Action>>> actions = new ArrayList<>();
    /** [phase][target][writer]: the signal after the phase's barrier. */
    final long[][][] signalsAfter;
    /** [phase][pe]: the "done" count a computing PE waits for, cumulative. */
    final long[][] doneAfter;
    /** [target][writer]: the puts with signal, in order. */
    final List<List<List<Logged>>> logs = new ArrayList<>();
    // the model: every PE's memory at the end
    final long[][] mem;
    final double[][] dacc;
    final long[][] log;
    final long[] sums;
    final long[] chains;
    // what the program covers
    int boundaryOps;
    int largeOps;
    int blockRdmaOps;
    int busyTargets;
    long moved;

    // planning state: per writer and target
    private final List<List<List<int[]>>> unfenced = new ArrayList<>();
    private final boolean[][] dirty;
    private final boolean[][] nbiInFlight;

    NicPlan(final NicProgram program) {
        pes = program.pes();
        final int phases = program.phases().size();
        busy = new boolean[phases][pes];
        final Geo[][][] geos = new Geo[phases][pes][];
        int left = BUDGET;
        int r = 64;
        int acc = 64;
        final int[][] logged = new int[pes][pes];
        for (int p = 0; p < phases; p++) {
            final NicProgram.Phase phase = program.phases().get(p);
            for (int w = 0; w < pes; w++) {
                busy[p][w] = phase.busy().get(w);
                final List<Op> ops = busy[p][w] ? List.of() : phase.ops().get(w);
                geos[p][w] = new Geo[ops.size()];
                for (int i = 0; i < ops.size(); i++) {
                    final Op op = ops.get(i);
                    final Geo g = geometry(op, left);
                    geos[p][w][i] = g;
                    left -= g.moved();
                    moved += g.moved();
                    switch (op.step()) {
                        case GET, GET_NBI, G, IGET, IBGET, IBGET_NBI -> {
                            r = Math.max(r, g.extent());
                            acc = Math.max(acc, g.extent());
                        }
                        case ACC, ACC_DOUBLE -> acc = Math.max(acc, g.extent());
                        case PUT_SIGNAL -> logged[op.target() % pes][w] += g.count();
                        default -> r = Math.max(r, g.extent());
                    }
                }
            }
        }
        region = r;
        accLength = acc;
        memLength = pes * region + accLength;
        logLength = Math.max(1, Arrays.stream(logged).flatMapToInt(Arrays::stream).max().orElse(0));
        mem = new long[pes][memLength];
        dacc = new double[pes][accLength];
        log = new long[pes][pes * logLength];
        sums = new long[pes];
        chains = new long[pes];
        signalsAfter = new long[phases][][];
        doneAfter = new long[phases][pes];
        dirty = new boolean[pes][pes];
        nbiInFlight = new boolean[pes][pes];
        final long[][] signals = new long[pes][pes];
        final long[] done = new long[pes];
        for (int w = 0; w < pes; w++) {
            final List<List<int[]>> row = new ArrayList<>();
            final List<List<Logged>> logRow = new ArrayList<>();
            for (int t = 0; t < pes; t++) {
                row.add(new ArrayList<>());
                logRow.add(new ArrayList<>());
            }
            unfenced.add(row);
            logs.add(logRow);
        }
        final int[][] logUsed = new int[pes][pes];
        for (int p = 0; p < phases; p++) {
            final NicProgram.Phase phase = program.phases().get(p);
            // Who writes where in this phase: a get of another writer's region or of the accumulate area is
            // planned only where nobody writes in the phase.
            final boolean[][] writes = new boolean[pes][pes];
            final boolean[] accumulated = new boolean[pes];
            int active = 0;
            for (int w = 0; w < pes; w++) {
                if (busy[p][w]) {
                    continue;
                }
                active++;
                for (final Op op : phase.ops().get(w)) {
                    switch (op.step()) {
                        case PUT, PUT_NBI, P, IPUT, IBPUT, SET, SWAP, CSWAP -> writes[op.target() % pes][w] = true;
                        case ACC -> accumulated[op.target() % pes] = true;
                        default -> {
                        }
                    }
                }
            }
            final List<List<Action>> perPe = new ArrayList<>();
            for (int w = 0; w < pes; w++) {
                final List<Action> list = new ArrayList<>();
                perPe.add(list);
                if (busy[p][w]) {
                    done[w] += active;
                    continue;
                }
                final List<Op> ops = phase.ops().get(w);
                for (int i = 0; i < ops.size(); i++) {
                    final Op op = ops.get(i);
                    final Geo g = geos[p][w][i];
                    final int t = op.target() % pes;
                    final String label = "phase " + p + " PE " + w + " step " + i;
                    final SplittableRandom rnd = new SplittableRandom(((long) op.value() << 20 ^ p << 12 ^ w << 8
                        ^ i) * 0x9E37_79B9_7F4A_7C15L);
                    if (busy[p][t]) {
                        busyTargets++;
                    }
                    if (g.count() >= 2030 && g.count() <= 2060 && g.block() == 1) {
                        boundaryOps++;
                    }
                    if (g.moved() >= 1 << 17) {
                        largeOps++;
                    }
                    switch (op.step()) {
                        case PUT, PUT_NBI, P, IPUT, IBPUT -> put(list, w, t, op, g, rnd, label);
                        case GET, GET_NBI, G, IGET, IBGET, IBGET_NBI -> get(list, w, t, op, g, writes, accumulated,
                            label);
                        case FETCH, SET, SWAP, CSWAP -> atomic(list, w, t, op, rnd, label);
                        case FETCH_ADD -> {
                            final long inc = 1 + op.value() % 1000;
                            chains[t] += inc;
                            list.add(new Action(op.step(), t, CHAIN, 1, 1, 1, 1, null, null, inc, 0, null,
                                label + ": fetch-add " + inc + " on PE " + t));
                        }
                        case ADD -> {
                            final long v = op.value() - (1 << 15);
                            sums[t] += v;
                            list.add(new Action(op.step(), t, SUM, 1, 1, 1, 1, null, null, v, 0, null,
                                label + ": atomic add " + v + " on PE " + t));
                        }
                        case PUT_SIGNAL -> {
                            final int index = w * logLength + logUsed[t][w];
                            logUsed[t][w] += g.count();
                            final long[] src = rnd.longs(g.count()).toArray();
                            System.arraycopy(src, 0, log[t], index, src.length);
                            final long k = ++signals[t][w];
                            final boolean add = (op.shape() & 1) != 0;
                            fenceIfOverlap(list, w, t, memLength + w, memLength + w, label);
                            final String what = label + ": put with signal #" + k + " (" + (add ? "ADD 1" : "SET "
                                + k) + "), " + g.count() + " longs (" + 8L * g.count() + " B) to PE " + t;
                            list.add(new Action(op.step(), t, index, 1, 1, 1, g.count(), src, null, add ? 1 : k,
                                add ? 1 : 0, null, what));
                            logs.get(t).get(w).add(new Logged(index, src, what));
                        }
                        case ACC -> {
                            final int index = pes * region + op.offset() % (accLength - g.extent() + 1);
                            final long alpha = LONG_ALPHA[op.value() % LONG_ALPHA.length];
                            final long[] src = rnd.longs(g.count()).toArray();
                            for (int k = 0; k < src.length; k++) {
                                mem[t][index + k * g.remoteStride()] += alpha * src[k];
                            }
                            list.add(new Action(op.step(), t, index, g.remoteStride(), 1, 1, g.count(), src, null,
                                alpha, 0, null, label + ": accumulate " + g.count() + " longs, stride "
                                + g.remoteStride() + ", alpha " + alpha + ", to PE " + t + " at " + index));
                        }
                        case ACC_DOUBLE -> {
                            final int index = op.offset() % (accLength - g.extent() + 1);
                            final double alpha = DOUBLE_ALPHA[op.value() % DOUBLE_ALPHA.length];
                            final double[] src = new double[g.count()];
                            for (int k = 0; k < src.length; k++) {
                                src[k] = (rnd.nextInt(513) - 256) / 4.0;
                                dacc[t][index + k * g.remoteStride()] += alpha * src[k];
                            }
                            list.add(new Action(op.step(), t, index, g.remoteStride(), 1, 1, g.count(), null, src,
                                Double.doubleToRawLongBits(alpha), 0, null, label + ": accumulate " + g.count()
                                + " doubles, stride " + g.remoteStride() + ", alpha " + alpha + ", to PE " + t
                                + " at " + index));
                        }
                        case FENCE -> {
                            unfenced.get(w).forEach(List::clear);
                            list.add(new Action(Step.FENCE, t, 0, 1, 1, 1, 0, null, null, 0, 0, null,
                                label + ": fence"));
                        }
                        case QUIET -> quiet(list, w, label + ": quiet");
                    }
                }
                // The phase ends with a quiet (the runner's, before its "done" notes and the barrier).
                quietState(w);
            }
            actions.add(perPe);
            signalsAfter[p] = new long[pes][];
            for (int t = 0; t < pes; t++) {
                signalsAfter[p][t] = signals[t].clone();
                doneAfter[p][t] = done[t];
            }
        }
    }

    /** Budget, strides and blocks: every value of the picks gives a valid geometry. */
    private static Geo geometry(final Op op, final int left) {
        final int size = Math.min(op.size(), Math.max(0, left));
        final int shape = op.shape();
        return switch (op.step()) {
            case PUT, PUT_NBI, GET, GET_NBI, PUT_SIGNAL -> new Geo(size, 1, 1, 1, size, size);
            case P, G, FETCH, SET, SWAP, CSWAP -> new Geo(1, 1, 1, 1, 1, 1);
            case ACC, ACC_DOUBLE -> strided(size, (shape & 3) == 0 ? 2 : 1, 1);
            case IPUT, IGET -> strided(size, 1 + (shape & 3), 1 + (shape >> 2) % 3);
            case IBPUT, IBGET, IBGET_NBI -> {
                int blocks = size == 0 ? 0 : 1 + (shape & 7);
                if ((shape & 256) != 0) {
                    // blocks of at least 8 KiB where the size allows: RDMA per block
                    blocks = Math.min(blocks, Math.max(1, size / 1024));
                }
                final int block = Math.max(1, blocks == 0 ? 1 : size / blocks);
                final int remote = block + GAPS[(shape >> 3) & 3];
                final int local = block + GAPS[(shape >> 5) & 3];
                if (blocks > 1 && (long) (blocks - 1) * remote + block > MAX_EXTENT) {
                    blocks = 1 + (MAX_EXTENT - block) / remote;
                }
                blocks = Math.min(blocks, size / block);
                yield new Geo(blocks, remote, local, block, blocks == 0 ? 0 : (blocks - 1) * remote + block,
                    blocks * block);
            }
            case FETCH_ADD, ADD, FENCE, QUIET -> new Geo(0, 1, 1, 1, 0, 0);
        };
    }

    private static Geo strided(final int size, final int remote, final int local) {
        final int n = Math.min(size, (MAX_EXTENT - 1) / remote + 1);
        return new Geo(n, remote, local, 1, n == 0 ? 0 : (n - 1) * remote + 1, n);
    }

    private void put(final List<Action> list, final int w, final int t, final Op op, final Geo g,
        final SplittableRandom rnd, final String label) {
        final int index = w * region + op.offset() % (region - g.extent() + 1);
        write(list, w, t, index, g.extent(), label);
        final long[] model = mem[t];
        final String what;
        final long[] src;
        switch (op.step()) {
            case P -> {
                src = new long[] {rnd.nextLong()};
                model[index] = src[0];
                what = "p";
            }
            case IPUT -> {
                src = new long[g.count() == 0 ? 0 : (g.count() - 1) * g.localStride() + 1];
                for (int k = 0; k < g.count(); k++) {
                    src[k * g.localStride()] = rnd.nextLong();
                    model[index + k * g.remoteStride()] = src[k * g.localStride()];
                }
                what = "iput " + g.count() + " longs, strides " + g.remoteStride() + "/" + g.localStride();
            }
            case IBPUT -> {
                src = new long[g.count() == 0 ? 0 : (g.count() - 1) * g.localStride() + g.block()];
                for (int b = 0; b < g.count(); b++) {
                    for (int j = 0; j < g.block(); j++) {
                        src[b * g.localStride() + j] = rnd.nextLong();
                        model[index + b * g.remoteStride() + j] = src[b * g.localStride() + j];
                    }
                }
                if (g.count() > 1 && g.block() >= 1024 && (g.remoteStride() != g.block()
                    || g.localStride() != g.block())) {
                    blockRdmaOps++;
                }
                what = "ibput " + g.count() + " blocks of " + g.block() + " longs (" + 8L * g.block()
                    + " B), strides " + g.remoteStride() + "/" + g.localStride();
            }
            default -> {
                src = rnd.longs(g.count()).toArray();
                System.arraycopy(src, 0, model, index, src.length);
                what = op.step().name().toLowerCase(java.util.Locale.ROOT) + " " + g.count() + " longs ("
                    + 8L * g.count() + " B)";
            }
        }
        list.add(new Action(op.step(), t, index, g.remoteStride(), g.localStride(), g.block(), g.count(), src, null,
            src.length == 1 ? src[0] : 0, 0, null, label + ": " + what + " to PE " + t + " at " + index));
    }

    private void get(final List<Action> list, final int w, final int t, final Op op, final Geo g,
        final boolean[][] writes, final boolean[] accumulated, final String label) {
        // Settled areas: this PE's own region (after a quiet), regions nobody writes at t in this phase, the
        // accumulate area if nobody accumulates into t in this phase.
        final List<Integer> areas = new ArrayList<>();
        areas.add(w);
        for (int v = 0; v < pes; v++) {
            if (v != w && !writes[t][v]) {
                areas.add(v);
            }
        }
        if (!accumulated[t]) {
            areas.add(pes);
        }
        final int area = areas.get(op.value() % areas.size());
        if (area == w && dirty[w][t]) {
            quiet(list, w, label + ": quiet (inserted: a get of what this PE wrote)");
        }
        final int length = area == pes ? accLength : region;
        final int index = area * region + op.offset() % (length - g.extent() + 1);
        final long[] model = mem[t];
        final long[] expect;
        final String what;
        switch (op.step()) {
            case G -> {
                expect = new long[] {model[index]};
                what = "g";
            }
            case IGET -> {
                expect = sentinels(g.count() == 0 ? 0 : (g.count() - 1) * g.localStride() + 1);
                for (int k = 0; k < g.count(); k++) {
                    expect[k * g.localStride()] = model[index + k * g.remoteStride()];
                }
                what = "iget " + g.count() + " longs, strides " + g.remoteStride() + "/" + g.localStride();
            }
            case IBGET, IBGET_NBI -> {
                expect = sentinels(g.count() == 0 ? 0 : (g.count() - 1) * g.localStride() + g.block());
                for (int b = 0; b < g.count(); b++) {
                    System.arraycopy(model, index + b * g.remoteStride(), expect, b * g.localStride(), g.block());
                }
                if (g.count() > 1 && g.block() >= 1024 && (g.remoteStride() != g.block()
                    || g.localStride() != g.block())) {
                    blockRdmaOps++;
                }
                what = op.step().name().toLowerCase(java.util.Locale.ROOT) + " " + g.count() + " blocks of "
                    + g.block() + " longs (" + 8L * g.block() + " B), strides " + g.remoteStride() + "/"
                    + g.localStride();
            }
            default -> {
                expect = sentinels(g.count() + 1);
                System.arraycopy(model, index, expect, 0, g.count());
                what = op.step().name().toLowerCase(java.util.Locale.ROOT) + " " + g.count() + " longs ("
                    + 8L * g.count() + " B)";
            }
        }
        if (op.step() == Step.GET_NBI || op.step() == Step.IBGET_NBI) {
            nbiInFlight[w][t] = true;
        }
        list.add(new Action(op.step(), t, index, g.remoteStride(), g.localStride(), g.block(), g.count(), null, null,
            0, 0, expect, label + ": " + what + " from PE " + t + " at " + index + " (" + (area == pes
            ? "accumulate area" : "region of PE " + area) + ")"));
    }

    private void atomic(final List<Action> list, final int w, final int t, final Op op, final SplittableRandom rnd,
        final String label) {
        final int index = w * region + op.offset() % region;
        final long old = mem[t][index];
        final long v = rnd.nextLong();
        long cond = 0;
        if (op.step() == Step.FETCH) {
            fenceIfOverlap(list, w, t, index, index, label);
        } else {
            write(list, w, t, index, 1, label);
            cond = (op.shape() & 1) == 0 ? old : old + 1;
            if (op.step() != Step.CSWAP || old == cond) {
                mem[t][index] = v;
            }
        }
        final String what = switch (op.step()) {
            case FETCH -> "atomic fetch";
            case SET -> "atomic set " + v;
            case SWAP -> "atomic swap " + v;
            default -> "atomic compare-swap " + cond + " -> " + v;
        };
        list.add(new Action(op.step(), t, index, 1, 1, 1, 1, null, null, v, cond,
            op.step() == Step.SET ? null : new long[] {old}, label + ": " + what + " on PE " + t + " at " + index));
    }

    /** Before a write into a PE's memory: a quiet if a non-blocking get from there is in flight, a fence if due. */
    private void write(final List<Action> list, final int w, final int t, final int index, final int extent,
        final String label) {
        if (nbiInFlight[w][t]) {
            quiet(list, w, label + ": quiet (inserted: a non-blocking get from PE " + t + " is in flight)");
        }
        if (extent > 0) {
            fenceIfOverlap(list, w, t, index, index + extent - 1, label);
            dirty[w][t] = true;
        }
    }

    private void fenceIfOverlap(final List<Action> list, final int w, final int t, final int lo, final int hi,
        final String label) {
        final List<int[]> ranges = unfenced.get(w).get(t);
        for (final int[] range : ranges) {
            if (range[0] <= hi && lo <= range[1]) {
                unfenced.get(w).forEach(List::clear);
                list.add(new Action(Step.FENCE, t, 0, 1, 1, 1, 0, null, null, 0, 0, null,
                    label + ": fence (inserted: it overlaps an earlier write to PE " + t + ")"));
                break;
            }
        }
        ranges.add(new int[] {lo, hi});
    }

    private void quiet(final List<Action> list, final int w, final String label) {
        quietState(w);
        list.add(new Action(Step.QUIET, w, 0, 1, 1, 1, 0, null, null, 0, 0, null, label));
    }

    private void quietState(final int w) {
        unfenced.get(w).forEach(List::clear);
        Arrays.fill(dirty[w], false);
        Arrays.fill(nbiInFlight[w], false);
    }

    private static long[] sentinels(final int n) {
        final long[] a = new long[n];
        Arrays.fill(a, SENTINEL);
        return a;
    }

    @Override
    public String toString() {
        return "plan{pes=" + pes + ", region=" + region + ", accumulate area=" + accLength + ", log=" + logLength
            + ", moved=" + moved * 8 / 1024 + " KiB}";
    }
}
