package org.jhpvm.apps.bench;

import java.util.function.BooleanSupplier;

import mpi.MPI;
import mpi.MPIException;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmOutputStream;
import org.jhpvm.mpi.MpiJob;

/**
 * MPI's 8-byte one-way latency against FM's on the same endpoint, in the same job, on the same two threads: blocks of
 * MPI {@code send}/{@code recv} round trips alternate with blocks of FM one-piece messages, and the figure is the
 * median over blocks of each MPI block's one-way time minus the FM block's after it
 * ({@code mpi_latency_overhead_ns_8B}). FM's trial in a job of its own, an MPI trial in another, can see the machine
 * in different states: the same FM ping-pong measured about 220 ns in some jobs and 580 ns in others of one JVM
 * minutes apart, which swamps a difference of tens of nanoseconds.
 * <p>
 * Made on a rank's thread before {@code MPI.Init} (it registers its FM handler, {@link #HANDLER}), by both ranks.
 */
final class PairedLatency {
    /** FM handler id of the paired ping-pong: clear of MPI's own (3000-3006). */
    static final int HANDLER = 3900;
    private static final long WAIT_NS = 60_000_000_000L;
    private static final int BYTES = 8;

    private final FastMessages fm;
    private final byte[] out = new byte[BYTES];
    private final byte[] in = new byte[BYTES];
    private final BooleanSupplier pinged = () -> this.pings > 0;
    private int pings;
    private int received;

    /** Registers the FM handler on the calling rank's endpoint (before {@code MPI.Init}). */
    PairedLatency() {
        fm = MpiJob.endpoint();
        if (fm == null) {
            throw new IllegalStateException("PairedLatency: not on a rank of an MPI job");
        }
        fm.register(HANDLER, (FmHandler) (stream, sender) -> {
            stream.receive(in, 0, stream.declaredLength());
            pings++;
            received++;
        });
    }

    /**
     * Runs {@code blocks} pairs of blocks of {@code roundTrips} round trips each between ranks 0 and 1 of
     * {@code COMM_WORLD} (both ranks call it).
     *
     * @param blocks     pairs of blocks, at least 1
     * @param roundTrips round trips per block, at least 1
     * @return on rank 0: per pair, MPI's one-way ns minus FM's, in block order; on rank 1: an empty array
     * @throws MPIException as MPI's calls do
     */
    double[] differencesNs(final int blocks, final int roundTrips) throws MPIException {
        final int me = MPI.COMM_WORLD.getRank();
        final int peer = 1 - me;
        MPI.COMM_WORLD.barrier();
        final double[] d = new double[blocks];
        for (int b = 0; b < blocks; b++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < roundTrips; i++) {
                if (me == 0) {
                    MPI.COMM_WORLD.send(out, BYTES, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.recv(in, BYTES, MPI.BYTE, peer, 1);
                } else {
                    MPI.COMM_WORLD.recv(in, BYTES, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.send(out, BYTES, MPI.BYTE, peer, 1);
                }
            }
            final long mpiNs = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < roundTrips; i++) {
                if (me == 0) {
                    ping(peer);
                    pong();
                } else {
                    pong();
                    ping(peer);
                }
            }
            final long fmNs = System.nanoTime() - t0;
            d[b] = (mpiNs - fmNs) / (2.0 * roundTrips);
        }
        return me == 0 ? d : new double[0];
    }

    /** @return FM pings this rank has received so far */
    int received() {
        return received;
    }

    private void ping(final int peer) {
        final FmOutputStream o = fm.beginMessage(peer, BYTES, HANDLER);
        o.sendPiece(out, 0, BYTES);
        o.endMessage();
    }

    private void pong() {
        if (!fm.extractUntil(pinged, WAIT_NS)) {
            throw new IllegalStateException("bench mpi: rank " + fm.pe() + " waited " + WAIT_NS / 1_000_000_000L
                + " s for FM's paired ping");
        }
        pings--;
    }
}
