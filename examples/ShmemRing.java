import org.jhpvm.runtime.Jhpvm;
import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * A token travels around a ring of PEs: each PE waits for it, adds its own number and puts it into its right
 * neighbour's memory. After every lap PE 0 checks that the token grew by 0 + 1 + ... + (npes - 1).
 *
 * <pre>bin/jhpvm run --pes 4 examples/ShmemRing.java [laps]</pre>
 */
public class ShmemRing {
    public static void main(String[] args) {
        Jhpvm.shmem(args, sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int laps = Jhpvm.args().isEmpty() ? 10 : Integer.parseInt(Jhpvm.args().get(0));
            final SymmetricLongs token = sh.mallocLongs(1); // the token as it arrives
            final SymmetricLongs arrivals = sh.mallocLongs(1); // how many times it has arrived here
            final long perLap = (long) n * (n - 1) / 2;
            final int right = (me + 1) % n;
            long value = 0;
            for (int lap = 1; lap <= laps; lap++) {
                if (me != 0 || lap > 1) {
                    // PE 0 starts the first lap; everyone else waits for the token to come round.
                    arrivals.waitUntil(0, Cmp.GE, me == 0 ? lap - 1 : lap);
                    value = token.local()[0];
                }
                if (me == 0 && lap > 1 && value != perLap * (lap - 1)) {
                    throw new IllegalStateException("lap " + (lap - 1) + ": token " + value + ", expected "
                        + perLap * (lap - 1));
                }
                token.p(right, 0, value + me);
                sh.fence(); // the token before its arrival count
                arrivals.atomicInc(right, 0);
            }
            if (me == 0) {
                arrivals.waitUntil(0, Cmp.GE, laps);
                final long last = token.local()[0];
                if (last != perLap * laps) {
                    throw new IllegalStateException("token " + last + " after " + laps + " laps, expected "
                        + perLap * laps);
                }
                System.out.println("ring of " + n + " PEs: token " + last + " after " + laps + " laps, as expected");
            }
        });
    }
}
