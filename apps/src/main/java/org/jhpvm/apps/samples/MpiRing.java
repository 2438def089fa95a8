package org.jhpvm.apps.samples;

import java.time.Duration;

import mpi.MPI;
import mpi.MPIException;

import org.jhpvm.mpi.MpiJob;

/**
 * The classic MPI ring (Open MPI's {@code ring} example) in the Open MPI Java bindings' API: rank 0 starts a token
 * holding a lap count and a hop count; every rank passes it to the next; rank 0 takes a lap off each time the token
 * comes back, and the token stops when the laps are done. Each rank counts the tokens it received; the hop count
 * says how many sends the token made.
 */
public final class MpiRing {
    private MpiRing() {
    }

    /**
     * What one rank saw.
     *
     * @param rank     the rank
     * @param ranks    the ranks in the ring
     * @param received the tokens this rank received
     * @param hops     on rank 0, the hops the token made; -1 elsewhere
     */
    public record Seen(int rank, int ranks, int received, long hops) {
        /**
         * Whether this rank saw what a correct ring gives for {@code laps}: every rank receives the token once per
         * lap and once more as it stops; rank 0 counts {@code (laps + 1) * ranks} hops (one per send).
         *
         * @param laps the laps run
         * @return true if right
         */
        public boolean right(final int laps) {
            return received == laps + 1 && (rank != 0 || hops == (long) (laps + 1) * ranks);
        }
    }

    /**
     * Runs the ring in a job of {@code ranks} ranks.
     *
     * @param ranks number of ranks
     * @param laps  times the token goes round
     * @return what each rank saw, in rank order; in a process of a launched job, null for the ranks other processes
     *         host
     */
    public static Seen[] run(final int ranks, final int laps) {
        final Seen[] seen = new Seen[ranks];
        MpiJob.builder().ranks(ranks).timeout(Duration.ofSeconds(60)).build().run(() -> {
            MPI.Init(new String[0]);
            final Seen s = ring(laps);
            seen[s.rank()] = s;
            MPI.Finalize();
        });
        return seen;
    }

    private static Seen ring(final int laps) throws MPIException {
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final int next = (rank + 1) % size;
        final int prev = (rank + size - 1) % size;
        final int tag = 201;
        final long[] token = new long[2]; // laps left, hops made
        int received = 0;
        if (rank == 0) {
            token[0] = laps;
            token[1] = 1;
            MPI.COMM_WORLD.send(token, 2, MPI.LONG, next, tag);
        }
        while (true) {
            MPI.COMM_WORLD.recv(token, 2, MPI.LONG, prev, tag);
            received++;
            if (rank == 0) {
                token[0]--;
            }
            if (rank == 0 && token[0] < 0) {
                break; // the last lap's token: every rank has passed the stop on
            }
            token[1]++;
            MPI.COMM_WORLD.send(token, 2, MPI.LONG, next, tag);
            if (token[0] == 0 && rank != 0) {
                break;
            }
        }
        return new Seen(rank, size, received, rank == 0 ? token[1] : -1);
    }
}
