import java.util.Arrays;

import org.jhpvm.runtime.Jhpvm;
import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.SignalOp;
import org.jhpvm.shmem.SymmetricDoubles;
import org.jhpvm.shmem.SymmetricInts;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * A tour of one-sided SHMEM: put and get of arrays, single elements (p/g), strided put, atomics (a shared ticket
 * counter, compare-and-swap, swap), put with signal, and a sum reduction. Each step checks its own answer.
 *
 * <pre>bin/jhpvm run --pes 4 examples/ShmemTour.java</pre>
 */
public class ShmemTour {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("wrong answer: " + what);
        }
    }

    public static void main(String[] args) {
        Jhpvm.shmem(args, sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;

            // put: write 8 doubles into the right neighbour; get: read them back from there
            final SymmetricDoubles data = sh.mallocDoubles(8);
            final double[] mine = new double[8];
            for (int i = 0; i < 8; i++) {
                mine[i] = me * 100 + i;
            }
            data.put(right, 0, mine, 0, 8);
            sh.barrierAll();
            for (int i = 0; i < 8; i++) {
                check(data.local()[i] == left * 100 + i, "put from the left neighbour, element " + i);
            }
            final double[] back = new double[8];
            data.get(right, 0, back, 0, 8);
            check(Arrays.equals(back, mine), "get of what this PE put");

            // p and g: one element
            final SymmetricInts one = sh.mallocInts(1);
            one.p(right, 0, 1000 + me);
            sh.barrierAll();
            check(one.g(right, 0) == 1000 + me, "g reads what this PE put at its right neighbour");
            check(one.local()[0] == 1000 + left, "p from the left neighbour");

            // strided put: every other element of a 6-element source into every third element
            final SymmetricLongs strided = sh.mallocLongs(9);
            final long[] src = {1, -1, 2, -1, 3, -1};
            strided.iput(right, 0, 3, src, 0, 2, 3);
            sh.barrierAll();
            check(Arrays.equals(strided.local(), new long[] {1, 0, 0, 2, 0, 0, 3, 0, 0}), "iput strides");

            // atomics: every PE takes tickets from PE 0's counter; all tickets are distinct
            final SymmetricLongs counter = sh.mallocLongs(2);
            final long[] tickets = new long[3];
            for (int t = 0; t < tickets.length; t++) {
                tickets[t] = counter.atomicFetchInc(0, 0);
            }
            sh.barrierAll();
            if (me == 0) {
                check(counter.local()[0] == 3L * n, "fetch-inc counted every ticket");
            }
            final SymmetricLongs allTickets = sh.mallocLongs(3 * n);
            allTickets.fcollect(sh.teamWorld(), 0, tickets, 0, 3);
            final long[] sorted = allTickets.local().clone();
            Arrays.sort(sorted);
            for (int i = 0; i < sorted.length; i++) {
                check(sorted[i] == i, "tickets are 0.." + (3 * n - 1) + " once each");
            }
            // compare-and-swap: exactly one PE wins the slot
            final long seen = counter.atomicCompareSwap(0, 1, 0, me + 1);
            final long[] won = {seen == 0 ? 1 : 0};
            final long[] winners = new long[1];
            sh.reduce(sh.teamWorld(), ReduceOp.SUM, winners, won, 1);
            check(winners[0] == 1, "one compare-and-swap winner, got " + winners[0]);
            // swap returns the old value
            sh.barrierAll();
            if (me == n - 1) {
                final long old = counter.atomicSwap(0, 1, -7);
                check(old >= 1 && old <= n, "swap returned the winner's mark");
                check(counter.atomicFetch(0, 1) == -7, "swap stored its value");
            }

            // put with signal: the data is there when the signal is
            final SymmetricLongs payload = sh.mallocLongs(4);
            final SymmetricLongs signal = sh.mallocLongs(1);
            payload.putSignal(right, 0, new long[] {me, me, me, me}, 0, 4, signal, 0, 1, SignalOp.ADD);
            signal.signalWaitUntil(0, Cmp.EQ, 1);
            check(Arrays.equals(payload.local(), new long[] {left, left, left, left}), "data before its signal");

            // reduction: the sum of all PE numbers
            final long[] sum = {me};
            sh.reduce(sh.teamWorld(), ReduceOp.SUM, sum, sum, 1);
            check(sum[0] == (long) n * (n - 1) / 2, "sum reduction");

            if (me == 0) {
                System.out.println("SHMEM tour on " + n + " PEs: put/get, p/g, iput, atomics, put-signal, "
                    + "reduction: all answers right");
            }
        });
    }
}
