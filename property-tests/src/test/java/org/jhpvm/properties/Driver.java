package org.jhpvm.properties;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;

/**
 * Drives a scenario on one thread, interleaving sends, polls and NIC turns in an order drawn from the scenario's
 * seed, so that a failing case replays exactly. Every frame carries its message index and its complement in the
 * header and a payload derived from the index, so that a damaged frame is recognised as such.
 */
final class Driver {
    static final long DEADLINE_NS = 20_000_000_000L;

    /** A frame as it arrived: message index, source, destination, and whether its payload was intact. */
    record Arrival(long index, int src, int dst, boolean intact) {
    }

    private Driver() {
    }

    static byte payloadByte(final long index, final int i) {
        return (byte) (index * 131 + i * 17 + 3);
    }

    static List<Arrival> run(final Fabric fabric, final Scenario scenario) {
        final int n = scenario.nics();
        final List<ArrayDeque<Integer>> toSend = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            toSend.add(new ArrayDeque<>());
        }
        for (int m = 0; m < scenario.messages().size(); m++) {
            toSend.get(scenario.messages().get(m).src()).add(m);
        }
        final List<Arrival> arrivals = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(scenario.scheduleSeed());
        final long deadline = System.nanoTime() + DEADLINE_NS;
        int unsent = scenario.messages().size();
        while (unsent > 0) {
            final int nic = random.nextInt(n);
            switch (random.nextInt(3)) {
                case 0 -> unsent -= trySend(fabric.nic(nic), toSend.get(nic), scenario);
                case 1 -> pollSome(fabric.nic(nic), arrivals, 1 + random.nextInt(4));
                default -> fabric.nic(nic).progress();
            }
            checkDeadline(deadline, fabric);
        }
        // Drain until two whole passes in a row move nothing: a NIC's turn late in a pass can deliver to a NIC
        // polled earlier in it.
        int quietPasses = 0;
        while (quietPasses < 2) {
            boolean busy = false;
            for (int i = 0; i < n; i++) {
                final Nic nic = fabric.nic(i);
                busy |= nic.progress() > 0;
                busy |= pollSome(nic, arrivals, Integer.MAX_VALUE) > 0;
                busy |= nic.pendingFrames() > 0;
            }
            quietPasses = busy ? 0 : quietPasses + 1;
            checkDeadline(deadline, fabric);
        }
        return arrivals;
    }

    private static void checkDeadline(final long deadline, final Fabric fabric) {
        if (System.nanoTime() - deadline > 0) {
            throw new AssertionError("scenario did not finish within " + DEADLINE_NS / 1_000_000 + " ms: "
                + fabric.totals());
        }
    }

    private static int trySend(final Nic nic, final ArrayDeque<Integer> queue, final Scenario scenario) {
        final Integer index = queue.peek();
        if (index == null) {
            return 0;
        }
        final Frame frame = nic.tryAcquire();
        if (frame == null) {
            return 0;
        }
        final Scenario.Message m = scenario.messages().get(index);
        frame.setDestination(m.dst()).setLength(m.length());
        frame.putHeaderLong(0, index);
        frame.putHeaderLong(8, ~(long) index);
        for (int i = 0; i < m.length(); i++) {
            frame.array()[frame.payloadOffset() + i] = payloadByte(index, i);
        }
        if (!nic.trySend(frame)) {
            nic.release(frame); // send ring full: try again later
            return 0;
        }
        queue.poll();
        return 1;
    }

    static int pollSome(final Nic nic, final List<Arrival> arrivals, final int max) {
        int polled = 0;
        Frame frame;
        while (polled < max && (frame = nic.poll()) != null) {
            final long index = frame.getHeaderLong(0);
            boolean intact = frame.getHeaderLong(8) == ~index;
            for (int i = 0; i < frame.length() && intact; i++) {
                intact = frame.array()[frame.payloadOffset() + i] == payloadByte(index, i);
            }
            arrivals.add(new Arrival(index, frame.source(), frame.destination(), intact));
            nic.release(frame);
            polled++;
        }
        return polled;
    }
}
