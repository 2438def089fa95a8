package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;

/** Test helpers: send and receive frames on one thread, with bounds on every wait. */
final class Frames {
    static final long WAIT_NS = 5_000_000_000L;
    private static final long QUIET_NS = 50_000_000L;

    private Frames() {
    }

    /** Sends a frame with the tag in its header and {@code length} bytes derived from the tag. */
    static void send(final Nic nic, final int dst, final long tag, final int length) {
        final Frame frame = nic.acquire();
        frame.setDestination(dst).setLength(length);
        frame.putHeaderLong(0, tag);
        for (int i = 0; i < length; i++) {
            frame.array()[frame.payloadOffset() + i] = payloadByte(tag, i);
        }
        nic.send(frame);
    }

    /**
     * Starts a thread per NIC {@code 0 .. count-1} that sends {@code frames} frames tagged 0, 1, ... to NIC
     * {@code dst}, 16 and 700 bytes in turn (a copied and a by-reference frame), and ends; a throw is kept in
     * {@code failure}.
     */
    static Thread[] startSenders(final Fabric fabric, final int count, final int dst, final int frames,
                                 final java.util.concurrent.atomic.AtomicReference<Throwable> failure) {
        final Thread[] senders = new Thread[count];
        for (int s = 0; s < count; s++) {
            final Nic nic = fabric.nic(s);
            senders[s] = new Thread(() -> {
                try {
                    for (long tag = 0; tag < frames; tag++) {
                        send(nic, dst, tag, tag % 2 == 0 ? 16 : 700);
                    }
                } catch (final Throwable t) {
                    failure.set(t);
                }
            }, "sender-" + s);
            senders[s].start();
        }
        return senders;
    }

    static byte payloadByte(final long tag, final int i) {
        return (byte) (tag * 31 + i * 7);
    }

    /** Checks that a frame carries the payload {@link #send} wrote for its tag. */
    static boolean intact(final Frame frame) {
        final long tag = frame.getHeaderLong(0);
        for (int i = 0; i < frame.length(); i++) {
            if (frame.array()[frame.payloadOffset() + i] != payloadByte(tag, i)) {
                return false;
            }
        }
        return true;
    }

    /** Receives one frame (bounded wait) and returns its tag after releasing it. */
    static long receiveTag(final Nic nic) {
        final Frame frame = nic.receive(WAIT_NS);
        if (frame == null) {
            throw new AssertionError("no frame at NIC " + nic.id() + " within " + WAIT_NS / 1_000_000 + " ms");
        }
        final long tag = frame.getHeaderLong(0);
        nic.release(frame);
        return tag;
    }

    /** Gives every NIC turns and drains every ring until nothing is in flight; returns the tags per NIC. */
    static List<List<Long>> drainAll(final Fabric fabric) {
        final List<List<Long>> tags = new ArrayList<>();
        for (int i = 0; i < fabric.nicCount(); i++) {
            tags.add(new ArrayList<>());
        }
        final long deadline = System.nanoTime() + WAIT_NS;
        // Until two whole passes in a row move nothing and nothing has moved for 50 ms: a NIC's turn late in a pass
        // can deliver to an earlier one, and a transport (Aeron UDP) has frames in flight that no NIC counts.
        int quietPasses = 0;
        long lastBusyNs = System.nanoTime();
        while (quietPasses < 2 || System.nanoTime() - lastBusyNs < QUIET_NS) {
            boolean busy = false;
            for (int i = 0; i < fabric.nicCount(); i++) {
                final Nic nic = fabric.nic(i);
                busy |= nic.progress() > 0;
                Frame frame;
                while ((frame = nic.poll()) != null) {
                    tags.get(i).add(frame.getHeaderLong(0));
                    nic.release(frame);
                    busy = true;
                }
                busy |= nic.pendingFrames() > 0;
            }
            quietPasses = busy ? 0 : quietPasses + 1;
            if (busy) {
                lastBusyNs = System.nanoTime();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("fabric did not drain within " + WAIT_NS / 1_000_000 + " ms: "
                    + fabric.totals());
            }
        }
        return tags;
    }
}
