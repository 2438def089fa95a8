import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GopOp;
import org.jhpvm.runtime.Jhpvm;

/**
 * Dynamic load balancing with a shared task counter (NGA_Read_inc): tasks of very different cost (the longest
 * Collatz chain in a range of starting numbers) are taken one by one by whichever PE is free; each result goes into a
 * Global Array with one slot per task. PE 0 checks that every task was done exactly once and that the answers equal
 * a plain loop's.
 *
 * <pre>bin/jhpvm run --pes 4 examples/GaTaskPool.java [tasks]</pre>
 */
public class GaTaskPool {
    static final int RANGE = 2_000;

    public static void main(String[] args) {
        Jhpvm.ga(args, ga -> {
            final int tasks = Jhpvm.args().isEmpty() ? 200 : Integer.parseInt(Jhpvm.args().get(0));
            final GlobalArray counter = ga.create(GaType.LONG, new int[] {1}, "next task");
            final GlobalArray results = ga.create(GaType.LONG, new int[] {tasks}, "longest chain per task");
            final GlobalArray doneBy = ga.create(GaType.LONG, new int[] {tasks}, "times each task was done");
            ga.sync();
            long mine = 0;
            for (long t = counter.readInc(new int[] {0}, 1); t < tasks; t = counter.readInc(new int[] {0}, 1)) {
                final int[] at = {(int) t};
                results.put(at, at, new long[] {longestChain(t * RANGE + 1, (t + 1) * RANGE)}, null);
                doneBy.acc(at, at, new long[] {1}, null, 1L);
                mine++;
            }
            ga.sync();
            final long[] total = {mine};
            ga.gop(total, GopOp.SUM);
            if (ga.nodeid() == 0) {
                final long[] got = new long[tasks];
                final long[] times = new long[tasks];
                results.get(new int[] {0}, new int[] {tasks - 1}, got, null);
                doneBy.get(new int[] {0}, new int[] {tasks - 1}, times, null);
                for (int t = 0; t < tasks; t++) {
                    if (times[t] != 1) {
                        throw new IllegalStateException("task " + t + " done " + times[t] + " times");
                    }
                    final long expected = longestChain((long) t * RANGE + 1, (long) (t + 1) * RANGE);
                    if (got[t] != expected) {
                        throw new IllegalStateException("task " + t + ": " + got[t] + ", a plain loop says " + expected);
                    }
                }
                if (total[0] != tasks) {
                    throw new IllegalStateException(total[0] + " tasks counted by the PEs, " + tasks + " given");
                }
                System.out.println(tasks + " tasks on " + ga.nnodes() + " PEs, each done once, every answer right");
            }
        });
    }

    /** The most Collatz steps to reach 1 of any start in [from, to]. */
    static long longestChain(long from, long to) {
        long best = 0;
        for (long s = from; s <= to; s++) {
            long x = s;
            long steps = 0;
            while (x != 1) {
                x = (x & 1) == 0 ? x >> 1 : 3 * x + 1;
                steps++;
            }
            best = Math.max(best, steps);
        }
        return best;
    }
}
