package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.ga.LocalBlock;
import org.jhpvm.shmem.ShmemJob;

/**
 * Global Arrays against a full local replica, the way GA's own test programs check themselves, under random fault
 * plans (a drop rate of 0 is a clean fabric). Each case is a PE count, a program seed and a fault plan; jqwik
 * prints the seed of a failing case and {@code @Property(seed = ...)} replays it, the faults too.
 */
class GlobalArrayProperties {

    private static void run(final int pes, final long faultSeed, final int dropPermille,
        final Consumer<GlobalArrays> body) {
        ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90))
            .option("fabric.faults.seed", Long.toString(faultSeed))
            .option("fabric.faults.drop", Double.toString(dropPermille / 1000.0))
            .option("fabric.faults.corrupt", Double.toString(dropPermille / 4000.0))
            .option("fabric.faults.duplicate", Double.toString(dropPermille / 4000.0)).build()
            .run(sh -> body.accept(new GlobalArrays(sh)));
    }

    /** Random dims (1-3-D), a random regular or irregular distribution, maybe ghosts: the same on every PE. */
    private static GlobalArray randomArray(final GlobalArrays ga, final Random rnd, final GaType type) {
        final int nd = 1 + rnd.nextInt(3);
        final int[] dims = new int[nd];
        for (int d = 0; d < nd; d++) {
            dims[d] = 1 + rnd.nextInt(nd == 1 ? 40 : nd == 2 ? 12 : 6);
        }
        final GlobalArray.Builder b = ga.builder(type, dims);
        if (rnd.nextBoolean()) {
            final int[] nblock = new int[nd];
            int p = 1;
            final int[] map = new int[nd * 3];
            int k = 0;
            for (int d = 0; d < nd; d++) {
                nblock[d] = 1 + rnd.nextInt(Math.min(3, Math.max(1, Math.min(dims[d], ga.nnodes() / p))));
                p *= nblock[d];
                // Distinct increasing starts from 0.
                final int[] starts = rnd.ints(0, dims[d]).distinct().limit(nblock[d] - 1L).sorted().toArray();
                map[k++] = 0;
                for (final int s : starts) {
                    map[k++] = s == 0 ? -1 : s;
                }
            }
            final int[] m = Arrays.stream(map, 0, k).toArray();
            if (Arrays.stream(m).noneMatch(x -> x < 0) && p <= ga.nnodes()) {
                b.irregular(nblock, m);
            }
        }
        return b.create();
    }

    private static double value(final GaType t, final Random rnd) {
        return t.isFloating() ? rnd.nextInt(2000) / 8.0 - 100 : rnd.nextInt(2000) - 1000;
    }

    /**
     * Random programs of put, acc (one PE, or every PE at once), strided put, periodic put, scatter and scatterAcc on
     * random sections; after each step every PE gets a random section, gathers random elements and compares with
     * the replica. Every PE draws the same program from the seed, so every PE knows the replica.
     */
    @Property(tries = 40)
    void randomSectionProgramsAgreeWithAReplica(@ForAll @IntRange(min = 1, max = 6) final int pes,
        @ForAll final long programSeed, @ForAll @LongRange(min = 1, max = 1000) final long faultSeed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        run(pes, faultSeed, dropPermille, ga -> {
            final Random shared = new Random(programSeed);
            final Random own = new Random(programSeed * 31 + ga.nodeid());
            final GaType type = GaType.values()[shared.nextInt(4)];
            final GlobalArray a = randomArray(ga, shared, type);
            final int[] dims = a.dims();
            final Model model = new Model(dims);
            for (int step = 0; step < 12; step++) {
                final int actor = shared.nextInt(pes);
                final int op = shared.nextInt(6);
                final int[][] sec = model.randomSection(shared);
                final double[] data = new double[model.volume(sec)];
                for (int i = 0; i < data.length; i++) {
                    data[i] = value(type, shared);
                }
                final boolean me = ga.nodeid() == actor;
                switch (op) {
                    case 0 -> {
                        if (me) {
                            a.nbPut(sec[0], sec[1], typed(type, data), model.ld(sec));
                        }
                        model.assign(sec, data, 1, false);
                    }
                    case 1 -> {
                        if (me) {
                            a.nbAcc(sec[0], sec[1], typed(type, data), model.ld(sec), 2);
                        }
                        model.assign(sec, data, 2, true);
                    }
                    case 2 -> {
                        a.nbAcc(sec[0], sec[1], typed(type, data), model.ld(sec), 1);
                        model.assign(sec, data, pes, true);
                    }
                    case 3 -> {
                        final int[] skip = new int[dims.length];
                        final int[] cnt = new int[dims.length];
                        for (int d = 0; d < dims.length; d++) {
                            skip[d] = 1 + shared.nextInt(3);
                            cnt[d] = (sec[1][d] - sec[0][d]) / skip[d] + 1;
                        }
                        final double[] sd = Arrays.copyOf(data, Model.product(cnt));
                        if (me) {
                            a.stridedPut(sec[0], sec[1], skip, typed(type, sd), Arrays.copyOfRange(cnt, 1,
                                cnt.length));
                        }
                        model.assignStrided(sec[0], skip, cnt, sd);
                    }
                    case 4 -> {
                        final int[] lo = new int[dims.length];
                        final int[] hi = new int[dims.length];
                        for (int d = 0; d < dims.length; d++) {
                            lo[d] = shared.nextInt(2 * dims[d]) - dims[d];
                            hi[d] = lo[d] + shared.nextInt(dims[d]);
                        }
                        final int[][] p = {lo, hi};
                        final double[] pd = Arrays.copyOf(data, model.volume(p));
                        for (int i = data.length; i < pd.length; i++) {
                            pd[i] = value(type, shared);
                        }
                        if (me) {
                            a.periodicPut(lo, hi, typed(type, pd), model.ld(p));
                        }
                        model.assignPeriodic(p, pd);
                    }
                    default -> {
                        final int n = 1 + shared.nextInt(8);
                        final int[][] subs = new int[n][];
                        final double[] v = new double[n];
                        for (int i = 0; i < n; i++) {
                            subs[i] = model.randomSubscript(shared);
                            v[i] = value(type, shared);
                        }
                        // scatterAcc from everyone (commutes); a scatter from the actor only of distinct elements.
                        a.scatterAcc(typed(type, v), subs, n, 1);
                        for (int i = 0; i < n; i++) {
                            model.data[model.linear(subs[i])] += pes * v[i];
                        }
                    }
                }
                ga.sync();
                // Everyone reads a random section and random elements with its own random stream.
                final int[][] r = model.randomSection(own);
                final Object got = type == GaType.DOUBLE ? new double[model.volume(r)] : typed(type,
                    new double[model.volume(r)]);
                a.nbGet(r[0], r[1], got, model.ld(r));
                ga.fence();
                final double[] want = model.section(r);
                for (int i = 0; i < want.length; i++) {
                    if (want[i] != java.lang.reflect.Array.getDouble(got, i)) {
                        failures.add("PE " + ga.nodeid() + " step " + step + " op " + op + ": get "
                            + Arrays.toString(r[0]) + ".." + Arrays.toString(r[1]) + " element " + i + " is "
                            + java.lang.reflect.Array.getDouble(got, i) + ", model " + want[i]);
                        break;
                    }
                }
                final int[][] subs = {model.randomSubscript(own), model.randomSubscript(own)};
                final Object g = typed(type, new double[2]);
                a.gather(g, subs, 2);
                for (int i = 0; i < 2; i++) {
                    if (model.data[model.linear(subs[i])] != java.lang.reflect.Array.getDouble(g, i)) {
                        failures.add("PE " + ga.nodeid() + " step " + step + ": gather " + Arrays.toString(subs[i]));
                    }
                }
                ga.sync();
            }
        });
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** After updateGhosts, each PE's stored block (ghosts included) equals a periodic get of the same box. */
    @Property(tries = 40)
    void ghostUpdatesAgreeWithPeriodicGets(@ForAll @IntRange(min = 1, max = 8) final int pes,
        @ForAll final long seed, @ForAll @LongRange(min = 1, max = 1000) final long faultSeed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        run(pes, faultSeed, dropPermille, ga -> {
            final Random shared = new Random(seed);
            final int nd = 1 + shared.nextInt(3);
            final int[] dims = new int[nd];
            final int[] w = new int[nd];
            for (int d = 0; d < nd; d++) {
                dims[d] = 4 + shared.nextInt(nd == 1 ? 30 : 8);
                w[d] = shared.nextInt(3);
            }
            final GlobalArray a;
            try {
                a = ga.builder(GaType.DOUBLE, dims).ghosts(w).create();
            } catch (final IllegalArgumentException blocksThinnerThanGhosts) {
                return; // the same decision on every PE; nothing to check for this shape
            }
            final Random own = new Random(seed + ga.nodeid());
            final LocalBlock block = a.access();
            final double[] local = block.doubles();
            for (int i = 0; i < local.length; i++) {
                local[i] = own.nextInt(1000);
            }
            a.updateGhosts();
            if (!block.isEmpty()) {
                final int[] lo = block.lo();
                final int[] hi = block.hi();
                final int[] cnt = new int[nd];
                for (int d = 0; d < nd; d++) {
                    lo[d] -= w[d];
                    hi[d] += w[d];
                    cnt[d] = hi[d] - lo[d] + 1;
                }
                final boolean fits = java.util.stream.IntStream.range(0, nd).allMatch(d -> cnt[d] <= dims[d]);
                if (fits) {
                    final double[] got = new double[Model.product(cnt)];
                    a.periodicGet(lo, hi, got, Arrays.copyOfRange(cnt, 1, nd));
                    final int[] s = lo.clone();
                    for (int i = 0; i < got.length; i++) {
                        if (got[i] != local[block.index(s)]) {
                            failures.add("PE " + ga.nodeid() + " cell " + Arrays.toString(s) + ": ghost "
                                + local[block.index(s)] + ", periodic get " + got[i]);
                            break;
                        }
                        for (int d = nd - 1; d >= 0 && ++s[d] > hi[d]; d--) {
                            s[d] = lo[d];
                        }
                    }
                }
            }
            ga.sync();
        });
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** readInc from every PE at once hands out 0..total-1, each value exactly once. */
    @Property(tries = 25)
    void readIncHandsOutEachValueOnce(@ForAll @IntRange(min = 1, max = 8) final int pes,
        @ForAll @IntRange(min = 1, max = 60) final int perPe, @ForAll @LongRange(min = 1, max = 1000) final long
            faultSeed, @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final long[][] taken = new long[pes][];
        run(pes, faultSeed, dropPermille, ga -> {
            final GlobalArray c = ga.create(perPe % 2 == 0 ? GaType.LONG : GaType.INT, new int[] {pes + 1}, "c");
            final long[] mine = new long[perPe];
            for (int i = 0; i < perPe; i++) {
                mine[i] = c.readInc(new int[] {pes}, 1);
            }
            taken[ga.nodeid()] = mine;
            ga.sync();
        });
        final long[] all = Arrays.stream(taken).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 0; i < all.length; i++) {
            assertEquals(i, all[i], "value " + i + " handed out exactly once");
        }
    }

    /** copy between two random distributions of the same shape preserves every element. */
    @Property(tries = 25)
    void copyBetweenDistributionsPreservesEveryElement(@ForAll @IntRange(min = 1, max = 8) final int pes,
        @ForAll final long seed, @ForAll @LongRange(min = 1, max = 1000) final long faultSeed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        run(pes, faultSeed, dropPermille, ga -> {
            final Random shared = new Random(seed);
            final GaType type = GaType.values()[shared.nextInt(4)];
            final GlobalArray a = randomArray(ga, shared, type);
            final int[] dims = a.dims();
            final int[] grid = new int[dims.length];
            int p = 1;
            for (int d = 0; d < dims.length; d++) {
                grid[d] = 1 + shared.nextInt(Math.max(1, pes / p));
                p *= grid[d];
            }
            final GlobalArray b = ga.builder(type, dims).procGrid(grid).create();
            final Model model = new Model(dims);
            for (int i = 0; i < model.data.length; i++) {
                model.data[i] = value(type, shared);
            }
            final int[][] all = model.whole();
            if (ga.nodeid() == 0) {
                a.nbPut(all[0], all[1], typed(type, model.data), model.ld(all));
            }
            ga.sync();
            a.copy(b);
            final Object got = typed(type, new double[model.data.length]);
            b.nbGet(all[0], all[1], got, model.ld(all));
            ga.fence();
            for (int i = 0; i < model.data.length; i++) {
                if (model.data[i] != java.lang.reflect.Array.getDouble(got, i)) {
                    failures.add("PE " + ga.nodeid() + ": element " + i + " of " + b + " grid "
                        + Arrays.toString(b.procGrid()) + " copied from grid " + Arrays.toString(a.procGrid()));
                    break;
                }
            }
            ga.sync();
        });
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** dgemm with random shapes, transposes and distributions equals the naive triple loop (exact integers). */
    @Property(tries = 25)
    void dgemmAgreesWithANaiveMultiply(@ForAll @IntRange(min = 1, max = 6) final int pes, @ForAll final long seed,
        @ForAll @LongRange(min = 1, max = 1000) final long faultSeed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final double[][] result = new double[1][];
        final double[][] expected = new double[1][];
        run(pes, faultSeed, dropPermille, ga -> {
            final Random r = new Random(seed);
            final int m = 1 + r.nextInt(30);
            final int n = 1 + r.nextInt(30);
            final int k = 1 + r.nextInt(300);
            final boolean ta = r.nextBoolean();
            final boolean tb = r.nextBoolean();
            final int alpha = r.nextInt(5) - 2;
            final int beta = r.nextInt(3) - 1;
            final GlobalArray a = ga.create(GaType.DOUBLE, ta ? new int[] {k, m} : new int[] {m, k}, "A");
            final GlobalArray b = ga.create(GaType.DOUBLE, tb ? new int[] {n, k} : new int[] {k, n}, "B");
            final GlobalArray c = ga.builder(GaType.DOUBLE, m, n).procGrid(1 + r.nextInt(Math.min(pes, m)), 1)
                .create();
            final double[] av = r.ints(m * k, -4, 5).asDoubleStream().toArray();
            final double[] bv = r.ints(k * n, -4, 5).asDoubleStream().toArray();
            final double[] cv = r.ints(m * n, -4, 5).asDoubleStream().toArray();
            if (ga.nodeid() == 0) {
                final int[] ad = a.dims();
                final int[] bd = b.dims();
                a.put(new int[] {0, 0}, new int[] {ad[0] - 1, ad[1] - 1}, av, new int[] {ad[1]});
                b.put(new int[] {0, 0}, new int[] {bd[0] - 1, bd[1] - 1}, bv, new int[] {bd[1]});
                c.put(new int[] {0, 0}, new int[] {m - 1, n - 1}, cv, new int[] {n});
            }
            ga.sync();
            ga.dgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, b, beta, c);
            if (ga.nodeid() == ga.nnodes() - 1) {
                final double[] got = new double[m * n];
                c.get(new int[] {0, 0}, new int[] {m - 1, n - 1}, got, new int[] {n});
                final double[] want = new double[m * n];
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < n; j++) {
                        double s = 0;
                        for (int kk = 0; kk < k; kk++) {
                            s += (ta ? av[kk * m + i] : av[i * k + kk]) * (tb ? bv[j * k + kk] : bv[kk * n + j]);
                        }
                        want[i * n + j] = alpha * s + beta * cv[i * n + j];
                    }
                }
                result[0] = got;
                expected[0] = want;
            }
            ga.sync();
        });
        assertArrayEquals(expected[0], result[0], 0.0);
    }

    private static Object typed(final GaType type, final double[] v) {
        return switch (type) {
            case DOUBLE -> v;
            case FLOAT -> {
                final float[] f = new float[v.length];
                for (int i = 0; i < v.length; i++) {
                    f[i] = (float) v[i];
                }
                yield f;
            }
            case LONG -> Arrays.stream(v).mapToLong(x -> (long) x).toArray();
            case INT -> Arrays.stream(v).mapToInt(x -> (int) x).toArray();
            case SCPL, DCPL -> throw new IllegalArgumentException("the properties draw real types only: " + type);
        };
    }

    /** The replica: a dense row-major array of doubles (every value used is exact in every type). */
    static final class Model {
        final int[] dims;
        final double[] data;

        Model(final int[] dims) {
            this.dims = dims;
            this.data = new double[product(dims)];
        }

        static int product(final int[] x) {
            int p = 1;
            for (final int v : x) {
                p *= v;
            }
            return p;
        }

        int[][] whole() {
            final int[] hi = dims.clone();
            for (int d = 0; d < hi.length; d++) {
                hi[d]--;
            }
            return new int[][] {new int[dims.length], hi};
        }

        int[][] randomSection(final Random r) {
            final int[] lo = new int[dims.length];
            final int[] hi = new int[dims.length];
            for (int d = 0; d < dims.length; d++) {
                lo[d] = r.nextInt(dims[d]);
                hi[d] = lo[d] + r.nextInt(dims[d] - lo[d]);
            }
            return new int[][] {lo, hi};
        }

        int[] randomSubscript(final Random r) {
            final int[] s = new int[dims.length];
            for (int d = 0; d < dims.length; d++) {
                s[d] = r.nextInt(dims[d]);
            }
            return s;
        }

        int volume(final int[][] sec) {
            int v = 1;
            for (int d = 0; d < dims.length; d++) {
                v *= sec[1][d] - sec[0][d] + 1;
            }
            return v;
        }

        int[] ld(final int[][] sec) {
            final int[] ld = new int[dims.length - 1];
            for (int d = 1; d < dims.length; d++) {
                ld[d - 1] = sec[1][d] - sec[0][d] + 1;
            }
            return ld;
        }

        int linear(final int[] s) {
            int l = 0;
            for (int d = 0; d < dims.length; d++) {
                l = l * dims[d] + Math.floorMod(s[d], dims[d]);
            }
            return l;
        }

        /** Visits the section's subscripts in row-major order with their packed index. */
        private void visit(final int[] lo, final int[] step, final int[] cnt, final java.util.function.ObjIntConsumer<
            int[]> f) {
            final int total = product(cnt);
            final int[] k = new int[dims.length];
            final int[] s = new int[dims.length];
            for (int i = 0; i < total; i++) {
                for (int d = 0; d < dims.length; d++) {
                    s[d] = lo[d] + k[d] * step[d];
                }
                f.accept(s, i);
                for (int d = dims.length - 1; d >= 0 && ++k[d] == cnt[d]; d--) {
                    k[d] = 0;
                }
            }
        }

        private int[] counts(final int[][] sec) {
            final int[] cnt = new int[dims.length];
            for (int d = 0; d < dims.length; d++) {
                cnt[d] = sec[1][d] - sec[0][d] + 1;
            }
            return cnt;
        }

        private int[] ones() {
            final int[] o = new int[dims.length];
            Arrays.fill(o, 1);
            return o;
        }

        void assign(final int[][] sec, final double[] v, final double scale, final boolean add) {
            visit(sec[0], ones(), counts(sec), (s, i) -> {
                final int l = linear(s);
                data[l] = (add ? data[l] : 0) + scale * v[i];
            });
        }

        void assignStrided(final int[] lo, final int[] skip, final int[] cnt, final double[] v) {
            visit(lo, skip, cnt, (s, i) -> data[linear(s)] = v[i]);
        }

        void assignPeriodic(final int[][] sec, final double[] v) {
            visit(sec[0], ones(), counts(sec), (s, i) -> data[linear(s)] = v[i]);
        }

        double[] section(final int[][] sec) {
            final double[] out = new double[volume(sec)];
            visit(sec[0], ones(), counts(sec), (s, i) -> out[i] = data[linear(s)]);
            return out;
        }
    }
}
