package org.jhpvm.apps.bench;

import java.util.function.BooleanSupplier;

import mpi.MPI;
import mpi.MPIException;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmOutputStream;
import org.jhpvm.mpi.MpiJob;

/**
 * FM measured beside MPI on the same endpoint, in the same job, on the same two threads, so that MPI's figures are
 * judged against FM's in the same state of the machine: FM's trial in a job of its own, an MPI trial in another, can
 * see it in different states (the same FM ping-pong measured about 220 ns in some jobs and 580 ns in others of one JVM
 * minutes apart, which swamps a difference of tens of nanoseconds, and moved a bandwidth ratio by half).
 * <ul>
 * <li>{@link #differencesNs}: blocks of MPI 8-byte {@code send}/{@code recv} round trips alternate with blocks of FM
 * one-piece messages; per pair, MPI's one-way time minus FM's ({@code mpi_latency_overhead_ns_8B} is their
 * median);</li>
 * <li>{@link #streamMBps}: FM one-piece messages from rank 0 to rank 1, one acknowledgement at the end, as FM's own
 * stream measures them (the denominator of each size's {@code efficiency}).</li>
 * </ul>
 * Made on each rank's thread before {@code MPI.Init} (it registers its FM handlers, {@link #PING} to {@link #ACK}).
 */
final class SameEndpoint {
    /** FM handler ids: clear of MPI's own (3000-3006). */
    static final int PING = 3900;
    static final int STREAM = 3901;
    static final int ACK = 3902;
    private static final long WAIT_NS = 60_000_000_000L;
    private static final int BYTES = 8;

    private final FastMessages fm;
    private final byte[] out;
    private final byte[] in;
    private final BooleanSupplier pinged = () -> this.pings > 0;
    private final BooleanSupplier acked = () -> this.acks > 0;
    private int pings;
    private int received;
    private long streamed;
    private long streamTarget;
    private final BooleanSupplier streamDone = () -> this.streamed >= this.streamTarget;
    private int acks;

    /**
     * Registers the FM handlers on the calling rank's endpoint (before {@code MPI.Init}).
     *
     * @param maxBytes the largest message {@link #streamMBps} will send
     */
    SameEndpoint(final int maxBytes) {
        fm = MpiJob.endpoint();
        if (fm == null) {
            throw new IllegalStateException("SameEndpoint: not on a rank of an MPI job");
        }
        out = new byte[Math.max(BYTES, maxBytes)];
        in = new byte[Math.max(BYTES, maxBytes)];
        fm.register(PING, (FmHandler) (stream, sender) -> {
            stream.receive(in, 0, stream.declaredLength());
            pings++;
            received++;
        });
        fm.register(STREAM, (FmHandler) (stream, sender) -> {
            stream.receive(in, 0, stream.declaredLength());
            streamed++;
        });
        fm.register(ACK, (FmHandler) (stream, sender) -> acks++);
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
                    send(peer, PING, BYTES);
                    await(pinged, "a paired ping");
                    pings--;
                } else {
                    await(pinged, "a paired ping");
                    pings--;
                    send(peer, PING, BYTES);
                }
            }
            final long fmNs = System.nanoTime() - t0;
            d[b] = (mpiNs - fmNs) / (2.0 * roundTrips);
        }
        return me == 0 ? d : new double[0];
    }

    /**
     * FM's stream of {@code n} one-piece messages of {@code size} bytes from rank 0 to rank 1 until rank 1's
     * acknowledgement (both ranks call it).
     *
     * @param size bytes per message, at most the constructor's {@code maxBytes}
     * @param n    messages, at least 1
     * @return on rank 0: MB/s (10^6 bytes per second); on rank 1: 0
     * @throws MPIException as MPI's barrier does
     */
    double streamMBps(final int size, final long n) throws MPIException {
        final int me = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.barrier();
        if (me == 0) {
            final long t0 = System.nanoTime();
            for (long i = 0; i < n; i++) {
                send(1, STREAM, size);
            }
            await(acked, "the stream's acknowledgement");
            acks--;
            return (double) n * size * 1e3 / (System.nanoTime() - t0);
        }
        streamTarget += n;
        await(streamDone, "the stream's messages");
        send(0, ACK, 0);
        return 0;
    }

    /** @return FM pings this rank has received so far */
    int received() {
        return received;
    }

    /** @return FM stream messages this rank has received so far */
    long streamed() {
        return streamed;
    }

    private void send(final int peer, final int handler, final int size) {
        final FmOutputStream o = fm.beginMessage(peer, size, handler);
        if (size > 0) {
            o.sendPiece(out, 0, size);
        }
        o.endMessage();
    }

    private void await(final BooleanSupplier done, final String what) {
        if (!fm.extractUntil(done, WAIT_NS)) {
            throw new IllegalStateException("bench mpi: rank " + fm.pe() + " waited " + WAIT_NS / 1_000_000_000L
                + " s for " + what);
        }
    }
}
