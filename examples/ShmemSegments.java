import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.jhpvm.runtime.Jhpvm;
import org.jhpvm.shmem.SymmetricSegment;

/**
 * A histogram spread over the PEs in host memory ({@code mallocSegment}): each PE draws numbers and adds one to the
 * bin each falls in, wherever that bin lives, with an atomic; then PE 0 reads every PE's bins and checks that they
 * count every draw. Between PEs of one host (one JVM, or the processes of one host under {@code launch}) each atomic
 * and get is a load or store straight into the other PE's memory; to a PE on another host it is a message.
 *
 * <pre>bin/jhpvm run --pes 4 examples/ShmemSegments.java [draws]
 * bin/jhpvm launch -n 2 -- run examples/ShmemSegments.java</pre>
 */
public class ShmemSegments {
    private static final int BINS_PER_PE = 64;

    public static void main(String[] args) {
        Jhpvm.shmem(args, sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int draws = Jhpvm.args().isEmpty() ? 100_000 : Integer.parseInt(Jhpvm.args().get(0));
            final SymmetricSegment bins = sh.mallocSegment(BINS_PER_PE * Long.BYTES);
            int direct = 0;
            for (int pe = 0; pe < n; pe++) {
                direct += bins.ptr(pe) != null ? 1 : 0;
            }
            final SplittableRandom random = new SplittableRandom(42 + me);
            final long started = System.nanoTime();
            for (int d = 0; d < draws; d++) {
                final int bin = random.nextInt(BINS_PER_PE * n);
                bins.atomicAdd(bin / BINS_PER_PE, (long) (bin % BINS_PER_PE) * Long.BYTES, 1);
            }
            final double nsPerAdd = (System.nanoTime() - started) / (double) draws;
            sh.barrierAll();
            System.out.printf("PE %d: %d of %d PEs in its host memory, %.0f ns per remote add%n", me, direct, n,
                nsPerAdd);
            if (me == 0) {
                final long[] all = new long[BINS_PER_PE];
                long total = 0;
                for (int pe = 0; pe < n; pe++) {
                    bins.get(pe, 0, all, 0, BINS_PER_PE);
                    for (final long c : all) {
                        total += c;
                    }
                }
                if (total != (long) draws * n) {
                    throw new IllegalStateException("the bins count " + total + " draws, expected " + (long) draws * n);
                }
                System.out.printf("histogram of %d draws over %d bins: every draw counted once (bin 0 holds %d)%n",
                    total, BINS_PER_PE * n, bins.local().get(ValueLayout.JAVA_LONG, 0));
            }
            sh.barrierAll();
            sh.free(bins);
        });
    }
}
