import java.util.SplittableRandom;

import org.jhpvm.runtime.Jhpvm;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * A cross-process RDMA soak: each PE makes OPS random one-sided operations on the heap arrays of the others (puts of
 * 1 word to 40,000 words, so that large ones go through host-memory rings; gets that read back what it wrote; atomic
 * adds, fetching or not; quiets, and stretches of computing while others' requests wait for its agent). Each PE
 * writes only its own stripe of every other PE's box, so every PE can replay every stream (a function of the seed
 * and the PE alone) and say what its memory must hold at the end: nothing lost, nothing doubled, nothing misplaced.
 * Arguments: operations per PE, seed.
 */
public class RdmaSoak {
    static final int STRIPE = 50_000;
    static final int COUNTERS = 64;

    public static void main(final String[] args) {
        final long ops = Long.parseLong(Jhpvm.args().get(0));
        final long seed = Long.parseLong(Jhpvm.args().get(1));
        Jhpvm.shmem(args, sh -> run(sh, ops, seed));
    }

    static void run(final Shmem sh, final long ops, final long seed) {
        final int me = sh.myPe();
        final int n = sh.nPes();
        final SymmetricLongs box = sh.mallocLongs(n * STRIPE);
        final SymmetricLongs counters = sh.mallocLongs(COUNTERS);
        // What this PE wrote into each other PE's stripe: its mirror, which gets must read back after a quiet.
        final long[][] mirror = new long[n][STRIPE];
        final long[] src = new long[STRIPE];
        final long[] back = new long[STRIPE];
        long wrongReads = 0;
        long fetchedOutOfRange = 0;
        long sink = 0;
        sh.barrierAll();
        final SplittableRandom r = new SplittableRandom(seed * 1_000_003L + me);
        final long t0 = System.nanoTime();
        for (long k = 0; k < ops; k++) {
            final int target = (me + 1 + r.nextInt(n - 1)) % n;
            final int kind = r.nextInt(1000);
            if (kind < 450) { // a put, mostly small, now and then ring-sized
                final int len = r.nextInt(20) == 0 ? 1 + r.nextInt(STRIPE - 10_000) : 1 + r.nextInt(16);
                final int at = r.nextInt(STRIPE - len + 1);
                final long stamp = (long) me << 56 | k << 8;
                for (int i = 0; i < len; i++) {
                    src[i] = stamp | i & 0xff;
                }
                box.put(target, me * STRIPE + at, src, 0, len);
                System.arraycopy(src, 0, mirror[target], at, len);
                sh.fence(); // the next put to that PE may overlap: it lands after this one
            } else if (kind < 750) { // an atomic add, fetching or not
                final int c = r.nextInt(COUNTERS);
                final long v = 1 + r.nextInt(1000);
                if (r.nextBoolean()) {
                    counters.atomicAdd(target, c, v);
                } else {
                    final long old = counters.atomicFetchAdd(target, c, v);
                    fetchedOutOfRange += old < 0 ? 1 : 0;
                }
            } else if (kind < 900) { // read back a piece of what this PE wrote there, after a quiet
                final int len = r.nextInt(10) == 0 ? 1 + r.nextInt(STRIPE) : 1 + r.nextInt(16);
                final int at = r.nextInt(STRIPE - len + 1);
                sh.quiet();
                box.get(target, me * STRIPE + at, back, 0, len);
                for (int i = 0; i < len; i++) {
                    wrongReads += back[i] != mirror[target][at + i] ? 1 : 0;
                }
            } else if (kind < 998) {
                sh.quiet();
            } else { // compute for a while: requests to this PE wait for its agent
                final long until = System.nanoTime() + 20_000 + r.nextInt(200_000);
                while (System.nanoTime() < until) {
                    sink += System.identityHashCode(src) & 1;
                }
            }
        }
        sh.barrierAll();
        final double seconds = (System.nanoTime() - t0) / 1e9;
        // Replay every other PE's stream: its stripe of this PE's box, and its adds to this PE's counters.
        final long[] expectedStripe = new long[STRIPE];
        final long[] expectedCounters = new long[COUNTERS];
        long wrongWords = 0;
        for (int w = 0; w < n; w++) {
            if (w == me) {
                continue;
            }
            java.util.Arrays.fill(expectedStripe, 0);
            final SplittableRandom rw = new SplittableRandom(seed * 1_000_003L + w);
            for (long k = 0; k < ops; k++) {
                final int target = (w + 1 + rw.nextInt(n - 1)) % n;
                final int kind = rw.nextInt(1000);
                if (kind < 450) {
                    final int len = rw.nextInt(20) == 0 ? 1 + rw.nextInt(STRIPE - 10_000) : 1 + rw.nextInt(16);
                    final int at = rw.nextInt(STRIPE - len + 1);
                    if (target == me) {
                        final long stamp = (long) w << 56 | k << 8;
                        for (int i = 0; i < len; i++) {
                            expectedStripe[at + i] = stamp | i & 0xff;
                        }
                    }
                } else if (kind < 750) {
                    final int c = rw.nextInt(COUNTERS);
                    final long v = 1 + rw.nextInt(1000);
                    rw.nextBoolean();
                    if (target == me) {
                        expectedCounters[c] += v;
                    }
                } else if (kind < 900) {
                    final int len = rw.nextInt(10) == 0 ? 1 + rw.nextInt(STRIPE) : 1 + rw.nextInt(16);
                    rw.nextInt(STRIPE - len + 1);
                } else if (kind >= 998) {
                    rw.nextInt(200_000);
                }
            }
            for (int i = 0; i < STRIPE; i++) {
                wrongWords += box.local()[w * STRIPE + i] != expectedStripe[i] ? 1 : 0;
            }
        }
        for (int i = 0; i < STRIPE; i++) {
            wrongWords += box.local()[me * STRIPE + i] != 0 ? 1 : 0; // nobody writes this PE's own stripe
        }
        long wrongCounters = 0;
        for (int c = 0; c < COUNTERS; c++) {
            wrongCounters += counters.local()[c] != expectedCounters[c] ? 1 : 0;
        }
        System.out.printf("RdmaSoak PE %d: %d operations in %.1f s; wrong words %d, wrong counters %d, wrong reads %d,"
            + " bad fetches %d%n", me, ops, seconds, wrongWords, wrongCounters, wrongReads, fetchedOutOfRange
            + (sink == -1 ? 1 : 0));
    }
}
