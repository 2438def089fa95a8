package org.jhpvm.apps.bench;

import java.util.function.BooleanSupplier;

import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmOutputStream;

/**
 * One of two PEs of the FM paper's measurements, the same program on either clock: a ping-pong (one-way latency) and
 * a stream closed by an acknowledgement (per-message time). Times come from {@link VirtualTime}, which is the
 * modelled machine's clock on a virtual fabric and this machine's {@code System.nanoTime} on a wall-clock one.
 */
final class FmPingStream {
    private static final int DATA = 1;
    private static final int ACK = 2;
    private static final long WAIT_NS = 600_000_000_000L;

    private final FastMessages fm;
    private final int peer;
    private final byte[] out;
    private final byte[] in;
    private long received;
    private long acks;

    /**
     * Registers the handlers (on every PE before any sends).
     *
     * @param fm       the PE's FM
     * @param maxBytes the largest message
     */
    FmPingStream(final FastMessages fm, final int maxBytes) {
        this.fm = fm;
        this.peer = 1 - fm.pe();
        this.out = new byte[maxBytes];
        this.in = new byte[maxBytes];
        fm.register(DATA, (FmHandler) (stream, sender) -> {
            stream.receive(in, 0, stream.declaredLength());
            received++;
        });
        fm.register(ACK, (FmHandler) (stream, sender) -> acks++);
    }

    private void send(final int handler, final int size) {
        final FmOutputStream o = fm.beginMessage(peer, size, handler);
        if (size > 0) {
            o.sendPiece(out, 0, size);
        }
        o.endMessage();
    }

    /** @return the mean one-way latency in microseconds, as PE 0's clock says */
    double pingPongUs(final int size, final int n) {
        final long t0 = VirtualTime.picoTime();
        for (int i = 0; i < n; i++) {
            if (fm.pe() == 0) {
                send(DATA, size);
                await(() -> received > 0);
                received--;
            } else {
                await(() -> received > 0);
                received--;
                send(DATA, size);
            }
        }
        return (VirtualTime.picoTime() - t0) / 1e6 / (2.0 * n);
    }

    /** @return picoseconds from PE 0's first send to its receipt of PE 1's acknowledgement of the last message */
    long streamPs(final int size, final int n) {
        final long t0 = VirtualTime.picoTime();
        if (fm.pe() == 0) {
            for (int i = 0; i < n; i++) {
                send(DATA, size);
            }
            await(() -> acks > 0);
            acks--;
        } else {
            await(() -> received >= n);
            received -= n;
            send(ACK, 0);
        }
        return VirtualTime.picoTime() - t0;
    }

    private void await(final BooleanSupplier done) {
        if (!fm.extractUntil(done, WAIT_NS)) {
            throw new IllegalStateException("benchmark PE " + fm.pe() + " waited " + WAIT_NS / 1e9 + " s");
        }
    }
}
