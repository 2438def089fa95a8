package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.at;
import static org.jhpvm.ga.GaTestSupport.buffer;
import static org.jhpvm.ga.GaTestSupport.f;
import static org.jhpvm.ga.GaTestSupport.linear;
import static org.jhpvm.ga.GaTestSupport.set;
import static org.jhpvm.ga.GaTestSupport.subscript;
import static org.jhpvm.ga.GaTestSupport.volume;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * put/get/acc, non-blocking, strided, periodic, scatter/gather/scatterAcc on 1-D to 4-D and 7-D arrays of every type,
 * regular and irregular, with and without ghosts, on 1..16 PEs, checked against a replica every PE keeps of what
 * every PE did (GA's own test programs check themselves the same way).
 */
@Timeout(240)
class SectionOpsTest {
    static final int[] PES = GaTestSupport.PES;
    static final int[][] SHAPES = {{37}, {13, 11}, {5, 6, 7}, {3, 4, 3, 5}, {2, 3, 2, 2, 1, 2, 3}};

    /** Block starts for an irregular map: uneven blocks, as many as fit in the PEs. */
    static int[][] irregular(final int[] dims, final int pes) {
        final int n = dims.length;
        final int[] nblock = new int[n];
        Arrays.fill(nblock, 1);
        int p = 1;
        for (int d = 0; d < n; d++) {
            while (nblock[d] < dims[d] && p / nblock[d] * (nblock[d] + 1) <= pes && nblock[d] < 3) {
                p = p / nblock[d] * (nblock[d] + 1);
                nblock[d]++;
            }
        }
        final List<Integer> map = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            for (int b = 0; b < nblock[d]; b++) {
                // Uneven: the first block is the smallest.
                map.add(b == 0 ? 0 : Math.min(dims[d] - (nblock[d] - b), b * dims[d] / nblock[d] + 1));
            }
        }
        return new int[][] {nblock, map.stream().mapToInt(Integer::intValue).toArray()};
    }

    static List<GlobalArray> arrays(final GlobalArrays ga) {
        final List<GlobalArray> out = new ArrayList<>();
        int k = 0;
        for (final int[] dims : SHAPES) {
            for (final boolean irregular : new boolean[] {false, true}) {
                for (final boolean ghosts : new boolean[] {false, true}) {
                    final GaType t = GaType.values()[k++ % 4]; // the real types: ComplexArraysTest has the others
                    final GlobalArray.Builder b = ga.builder(t, dims).name("a" + k);
                    if (irregular) {
                        final int[][] im = irregular(dims, ga.nnodes());
                        b.irregular(im[0], im[1]);
                    }
                    if (ghosts) {
                        final int[] w = new int[dims.length];
                        Arrays.fill(w, 1);
                        b.ghosts(w);
                    }
                    out.add(b.create());
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldAgreeWithAReplicaForEverySectionOperation(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GlobalArray a : arrays(ga)) {
                exercise(ga, a);
                a.destroy();
            }
        });
    }

    @org.junit.jupiter.api.Test
    void shouldAgreeWithTheReplicaOverALossyFabric() {
        final org.jhpvm.shmem.ShmemJob.Report r = GaTestSupport.runLossy(4, 20261121L, ga -> {
            for (final GlobalArray a : arrays(ga)) {
                exercise(ga, a);
                a.destroy();
            }
        });
        assertTrue(r.counters().get("fm.framesRetransmitted") > 0, "the fabric really lost frames: " + r.counters());
        assertEquals(0L, r.counters().get("shmem.rejected"));
    }

    static void exercise(final GlobalArrays ga, final GlobalArray a) {
        final int me = ga.nodeid();
        final int n = ga.nnodes();
        final int[] dims = a.dims();
        final int nd = dims.length;
        final GaType t = a.type();
        final double[] replica = new double[(int) volume(dims)];
        final String what = a + " " + Arrays.toString(a.procGrid()) + " on " + n + " PEs";

        // 1. Each PE puts its slab of dimension 0 (through a padded buffer), everyone checks the whole.
        for (int r = 0; r < n; r++) {
            final int lo0 = r * dims[0] / n;
            final int hi0 = (r + 1) * dims[0] / n - 1;
            if (lo0 > hi0) {
                continue;
            }
            final int[] lo = new int[nd];
            final int[] hi = dims.clone();
            lo[0] = lo0;
            hi[0] = hi0;
            for (int d = 1; d < nd; d++) {
                hi[d]--;
            }
            forEach(lo, hi, s -> replica[(int) linear(dims, s)] = f(t, linear(dims, s)));
            if (r == me) {
                final int[] ld = padded(lo, hi);
                final Object buf = buffer(t, bufferLength(lo, hi, ld));
                forEach(lo, hi, s -> set(buf, bufIndex(lo, ld, s), f(t, linear(dims, s))));
                putTyped(a, lo, hi, buf, ld);
            }
        }
        a.group().sync();
        checkWhole(a, replica, what + " after put");
        checkLocalBlock(a, replica);
        a.group().sync();

        // 2. Everyone accumulates 2 * (its rank + 1) into a box in the middle.
        final int[] mlo = new int[nd];
        final int[] mhi = new int[nd];
        for (int d = 0; d < nd; d++) {
            mlo[d] = dims[d] / 4;
            mhi[d] = Math.max(mlo[d], dims[d] * 3 / 4 - 1);
        }
        final int[] mld = padded(mlo, mhi);
        final Object ones = buffer(t, bufferLength(mlo, mhi, mld));
        forEach(mlo, mhi, s -> set(ones, bufIndex(mlo, mld, s), me + 1));
        accTyped(a, mlo, mhi, ones, mld, 2);
        forEach(mlo, mhi, s -> replica[(int) linear(dims, s)] += (double) n * (n + 1));
        a.group().sync();
        checkWhole(a, replica, what + " after acc");

        // 3. Strided: the last PE writes every other element of every dimension with non-blocking calls.
        final int[] slo = new int[nd];
        final int[] shi = new int[nd];
        final int[] skip = new int[nd];
        final int[] cnt = new int[nd];
        for (int d = 0; d < nd; d++) {
            slo[d] = dims[d] > 2 ? 1 : 0;
            shi[d] = dims[d] - 1;
            skip[d] = 2;
            cnt[d] = (shi[d] - slo[d]) / 2 + 1;
        }
        final int[] sld = Arrays.copyOfRange(cnt, 1, nd);
        final Object sbuf = buffer(t, (int) volume(cnt));
        forEach(new int[nd], minusOne(cnt), k -> {
            final int[] s = new int[nd];
            for (int d = 0; d < nd; d++) {
                s[d] = slo[d] + 2 * k[d];
            }
            final double v = -1 - linear(dims, s);
            replica[(int) linear(dims, s)] = v;
            if (me == n - 1) {
                set(sbuf, (int) linear(cnt, k), v);
            }
        });
        if (me == n - 1) {
            a.stridedPut(slo, shi, skip, sbuf, sld);
        }
        a.group().sync();
        checkWhole(a, replica, what + " after strided put");
        final Object sgot = buffer(t, (int) volume(cnt));
        a.stridedGet(slo, shi, skip, sgot, sld);
        forEach(new int[nd], minusOne(cnt), k -> {
            final int[] s = new int[nd];
            for (int d = 0; d < nd; d++) {
                s[d] = slo[d] + 2 * k[d];
            }
            assertEquals(replica[(int) linear(dims, s)], at(sgot, (int) linear(cnt, k)), 0.0, what + " strided get");
        });
        a.group().sync();

        // 4. Periodic: PE 0 writes a box that wraps around every upper edge; everyone reads it back.
        final int[] plo = new int[nd];
        final int[] phi = new int[nd];
        final int[] pcnt = new int[nd];
        for (int d = 0; d < nd; d++) {
            plo[d] = dims[d] - 2;
            phi[d] = dims[d] + Math.min(1, dims[d] - 3);
            pcnt[d] = phi[d] - plo[d] + 1;
        }
        final Object pbuf = buffer(t, (int) volume(pcnt));
        final int[] pld = Arrays.copyOfRange(pcnt, 1, nd);
        forEach(new int[nd], minusOne(pcnt), k -> {
            final int[] s = new int[nd];
            for (int d = 0; d < nd; d++) {
                s[d] = Math.floorMod(plo[d] + k[d], dims[d]);
            }
            final double v = 1000 + linear(pcnt, k);
            replica[(int) linear(dims, s)] = v;
            set(pbuf, (int) linear(pcnt, k), v);
        });
        if (me == 0) {
            a.periodicPut(plo, phi, pbuf, pld);
        }
        a.group().sync();
        checkWhole(a, replica, what + " after periodic put");
        final Object pgot = buffer(t, (int) volume(pcnt));
        a.periodicGet(plo, phi, pgot, pld);
        for (int i = 0; i < volume(pcnt); i++) {
            assertEquals(at(pbuf, i), at(pgot, i), 0.0, what + " periodic get " + i);
        }

        // 5. Scatter from the middle PE, scatterAcc from everyone, gather everywhere.
        final int m = Math.min(replica.length, 11);
        final int[][] subs = new int[m][];
        final Object vals = buffer(t, m);
        final Object incs = buffer(t, m);
        for (int i = 0; i < m; i++) {
            final long lin = (long) i * 7919 % replica.length; // distinct: 7919 is prime and above every length
            subs[i] = subscript(dims, lin);
            set(vals, i, 5 * i + 1);
            set(incs, i, 1);
        }
        a.group().sync();
        if (me == n / 2) {
            a.scatter(vals, subs, m);
        }
        a.group().sync();
        a.scatterAcc(incs, subs, m, 3);
        a.group().sync();
        final Object got = buffer(t, m);
        a.gather(got, subs, m);
        for (int i = 0; i < m; i++) {
            replica[(int) linear(dims, subs[i])] = 5 * i + 1 + 3.0 * n;
            assertEquals(5 * i + 1 + 3.0 * n, at(got, i), 0.0, what + " gather " + i);
        }
        a.group().sync();
        checkWhole(a, replica, what + " after scatter");
        a.group().sync();
    }

    /** Every PE reads the whole array and compares; a sync after, so no PE writes while another still reads. */
    static void checkWhole(final GlobalArray a, final double[] replica, final String what) {
        assertArrayEquals(replica, GaTestSupport.whole(a), 0.0, what);
        a.group().sync();
    }

    /** The local block (interior) holds the replica's values at the right places. */
    static void checkLocalBlock(final GlobalArray a, final double[] replica) {
        final LocalBlock block = a.access();
        final int[][] dist = a.distribution(a.group().nodeid());
        assertEquals(block.isEmpty(), Arrays.stream(dist[1]).anyMatch(x -> x < 0), "empty iff no block");
        if (block.isEmpty()) {
            return;
        }
        assertArrayEquals(dist[0], block.lo());
        final Object arr = switch (a.type()) {
            case INT -> block.ints();
            case LONG -> block.longs();
            case FLOAT, SCPL -> block.floats();
            case DOUBLE, DCPL -> block.doubles();
        };
        forEach(block.lo(), block.hi(), s -> assertEquals(replica[(int) linear(a.dims(), s)], at(arr, block.index(s)),
            0.0, "local " + Arrays.toString(s)));
        a.release();
    }

    static int[] minusOne(final int[] c) {
        final int[] r = c.clone();
        for (int d = 0; d < r.length; d++) {
            r[d]--;
        }
        return r;
    }

    /** ld one larger than the section in every dimension but the first. */
    static int[] padded(final int[] lo, final int[] hi) {
        final int[] ld = new int[lo.length - 1];
        for (int d = 1; d < lo.length; d++) {
            ld[d - 1] = hi[d] - lo[d] + 2;
        }
        return ld;
    }

    static int bufferLength(final int[] lo, final int[] hi, final int[] ld) {
        int len = hi[0] - lo[0] + 1;
        for (final int l : ld) {
            len *= l;
        }
        return len;
    }

    static int bufIndex(final int[] lo, final int[] ld, final int[] s) {
        int i = s[0] - lo[0];
        for (int d = 1; d < lo.length; d++) {
            i = i * ld[d - 1] + s[d] - lo[d];
        }
        return i;
    }

    static void putTyped(final GlobalArray a, final int[] lo, final int[] hi, final Object buf, final int[] ld) {
        switch (buf) {
            case int[] b -> a.put(lo, hi, b, ld);
            case long[] b -> a.put(lo, hi, b, ld);
            case float[] b -> a.put(lo, hi, b, ld);
            case double[] b -> a.put(lo, hi, b, ld);
            default -> throw new IllegalArgumentException();
        }
    }

    static void accTyped(final GlobalArray a, final int[] lo, final int[] hi, final Object buf, final int[] ld,
        final int alpha) {
        switch (buf) {
            case int[] b -> a.acc(lo, hi, b, ld, alpha);
            case long[] b -> a.acc(lo, hi, b, ld, alpha);
            case float[] b -> a.acc(lo, hi, b, ld, alpha);
            case double[] b -> a.acc(lo, hi, b, ld, alpha);
            default -> throw new IllegalArgumentException();
        }
    }

    interface SubscriptConsumer {
        void accept(int[] s);
    }

    /** Visits every subscript of lo..hi in row-major order. */
    static void forEach(final int[] lo, final int[] hi, final SubscriptConsumer c) {
        final int nd = lo.length;
        for (int d = 0; d < nd; d++) {
            if (lo[d] > hi[d]) {
                return;
            }
        }
        final int[] s = lo.clone();
        while (true) {
            c.accept(s.clone());
            int d = nd - 1;
            while (d >= 0 && s[d] == hi[d]) {
                s[d] = lo[d];
                d--;
            }
            if (d < 0) {
                return;
            }
            s[d]++;
        }
    }

    @org.junit.jupiter.api.Test
    void shouldSampleOnlyTheFirstElementWithAHugeSkip() {
        GaTestSupport.run(2, ga -> {
            final GlobalArray a = ga.builder(GaType.DOUBLE, 4, 100).procGrid(1, 2).create();
            if (ga.nodeid() == 0) {
                a.stridedPut(new int[] {1, 0}, new int[] {1, 99}, new int[] {1, Integer.MAX_VALUE}, new double[] {42},
                    new int[] {1});
            }
            ga.sync();
            final double[] all = GaTestSupport.whole(a);
            for (int i = 0; i < all.length; i++) {
                assertEquals(i == 100 ? 42 : 0, all[i], 0.0, "element " + i);
            }
            ga.sync();
        });
    }

}
