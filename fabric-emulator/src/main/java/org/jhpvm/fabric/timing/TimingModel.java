package org.jhpvm.fabric.timing;

import java.util.Objects;

/**
 * The arithmetic of virtual time: when a frame that leaves a host at a given time reaches the other host's memory,
 * on a {@link MachineModel}, with the resources of both NICs ({@link Timeline}) busy as earlier frames left them.
 * All times are {@code long} picoseconds; nothing here reads a clock, so the same inputs give the same times.
 * <p>
 * A frame's way, split where its two hosts' threads meet:
 * <ol>
 *   <li>{@link #hostSendPs}: the sending host's own work, added to its clock;</li>
 *   <li>{@link #send}: the send DMA, the NIC's processor and the sender's link (the sender's resources), ending
 *       with the times the frame's first and last bytes reach the switch port of the receiver;</li>
 *   <li>{@link #receive}: the switch port to the receiver (where frames of several senders contend), the receiving
 *       NIC's processor and its DMA into host memory (the receiver's resources), ending with the arrival;</li>
 *   <li>{@link #hostRecvPs}: the receiving host's work when it polls the frame, added to its clock.</li>
 * </ol>
 * A stage starts when its resource is free and the stage before has passed the frame on (its first bytes, for a
 * cut-through stage; all of it otherwise), and ends no earlier than the stage before it.
 * <p>
 * Thread-safety: immutable; a {@link Timeline} and a {@link Flight} belong to one thread at a time.
 */
public final class TimingModel {
    private final MachineModel machine;
    private final long lookaheadPs;
    private final long receiveLookaheadPs;

    /**
     * A model of a machine.
     *
     * @param machine the machine
     */
    public TimingModel(final MachineModel machine) {
        this.machine = Objects.requireNonNull(machine, "machine");
        // The link starts no earlier than the fixed costs of every stage before it after the frame's departure.
        this.lookaheadPs = least(machine.hostSend()) + least(machine.txDma()) + least(machine.nicTx())
            + machine.linkLatencyPs();
        this.receiveLookaheadPs = least(machine.nicRx()) + least(machine.rxDma());
        if (machine.hostPollPs() >= lookaheadPs + receiveLookaheadPs) {
            // A poll that found nothing moves the clock on by its cost; a frame that arrives meanwhile must already be
            // known, so that the clock lands on its arrival exactly (see VirtualNic).
            throw new IllegalArgumentException("machine " + machine.name() + ": stages.host_poll.fixed_ns ("
                + machine.hostPollPs() / 1000.0 + ") must be below the least latency of a frame ("
                + (lookaheadPs + receiveLookaheadPs) / 1000.0 + " ns)");
        }
    }

    /** The least time a frame spends in a stage: its fixed cost and its delay. */
    private static long least(final Stage s) {
        return s.enabled() ? s.leastFixedPs() + s.delayPs() : 0;
    }

    /**
     * The machine this model keeps the time of.
     *
     * @return the machine
     */
    public MachineModel machine() {
        return machine;
    }

    /**
     * The least time from a frame's departure (the sender's clock when it sends) to its first byte reaching the
     * switch port of its receiver: no frame a host sends from time t reaches the switch before t plus this.
     *
     * @return picoseconds, more than 0
     */
    public long sendLookaheadPs() {
        return lookaheadPs;
    }

    /**
     * The least time from a frame's departure to its arrival in the receiver's memory.
     *
     * @return picoseconds, more than 0
     */
    public long lookaheadPs() {
        return lookaheadPs + receiveLookaheadPs;
    }

    /**
     * Bytes of a frame on the wire: the payload and the machine's header.
     *
     * @param payloadBytes the frame's payload
     * @return bytes on the wire
     */
    public int wireBytes(final int payloadBytes) {
        return machine.headerBytes() + payloadBytes;
    }

    /**
     * The sending host's work for a frame (its overhead, and its writes across the I/O bus with programmed I/O).
     *
     * @param payloadBytes the frame's payload
     * @return picoseconds the sender's clock advances
     */
    public long hostSendPs(final int payloadBytes) {
        return machine.hostSend().hostPs(wireBytes(payloadBytes));
    }

    /**
     * The receiving host's work for a frame it polls.
     *
     * @param payloadBytes the frame's payload
     * @return picoseconds the receiver's clock advances
     */
    public long hostRecvPs(final int payloadBytes) {
        return machine.hostRecv().hostPs(wireBytes(payloadBytes));
    }

    /**
     * The cost of a poll that finds nothing.
     *
     * @return picoseconds
     */
    public long pollPs() {
        return machine.hostPollPs();
    }

    /**
     * The sender's part of a frame's way: its NIC's send DMA and processor and its link, as busy as {@code tx} says,
     * which this updates.
     *
     * @param tx           the sending NIC's resources
     * @param departurePs  the sender's clock when it began to send the frame
     * @param payloadBytes the frame's payload
     * @param out          receives the times the frame's first and last bytes reach the receiver's switch port
     */
    public void send(final Timeline tx, final long departurePs, final int payloadBytes, final Flight out) {
        final int bytes = wireBytes(payloadBytes);
        final Stage host = machine.hostSend();
        final long[] w = out.way;
        w[HEAD] = departurePs + host.fixedPs(bytes) + host.delayPs();
        w[END] = departurePs + host.fixedPs(bytes) + host.bytePs(bytes) + host.delayPs();
        tx.txDmaBusyPs = step(machine.txDma(), tx.txDmaBusyPs, bytes, w);
        tx.nicTxBusyPs = step(machine.nicTx(), tx.nicTxBusyPs, bytes, w);
        // The link is wormhole-routed: the first bytes go as soon as the NIC passes them on.
        final long s = Math.max(tx.linkOutBusyPs, w[HEAD]);
        final long tail = Math.max(s + machine.link().timePs(bytes), w[END]);
        tx.linkOutBusyPs = tail;
        out.headAtSwitchPs = s + machine.linkLatencyPs();
        out.tailAtSwitchPs = tail + machine.linkLatencyPs();
    }

    private static final int HEAD = 0;
    private static final int END = 1;

    /**
     * A frame passes one stage: it starts when the resource is free and the stage before has passed the frame on
     * ({@code way}: when its first bytes and all of it did), and passes it on in turn.
     *
     * @return when the resource is free again (unchanged if the stage is skipped)
     */
    private static long step(final Stage stage, final long busyPs, final int bytes, final long[] way) {
        if (!stage.enabled()) {
            return busyPs;
        }
        final long start = Math.max(busyPs, stage.cutThrough() ? way[HEAD] : way[END]);
        final long done = Math.max(start + stage.timePs(bytes), way[END]);
        way[HEAD] = start + stage.fixedPs(bytes) + stage.delayPs();
        way[END] = done + stage.delayPs();
        return done + stage.afterPs();
    }

    /**
     * The receiver's part of a frame's way: the switch port to it, its NIC's processor and its receive DMA, as busy
     * as {@code rx} says, which this updates. Frames must be given in the order their first bytes reach the switch
     * port ({@link Flight#headAtSwitchPs}), as the port serves them.
     *
     * @param rx           the receiving NIC's resources
     * @param flight       the frame's times at the switch, from {@link #send}
     * @param payloadBytes the frame's payload
     * @return the frame's arrival in the receiver's memory, in picoseconds
     */
    public long receive(final Timeline rx, final Flight flight, final int payloadBytes) {
        final int bytes = wireBytes(payloadBytes);
        final long start = Math.max(rx.linkInBusyPs, flight.headAtSwitchPs);
        final long end = Math.max(start + machine.link().timePs(bytes), flight.tailAtSwitchPs);
        rx.linkInBusyPs = end;
        final long[] w = flight.way;
        w[HEAD] = start;
        w[END] = end;
        rx.nicRxBusyPs = step(machine.nicRx(), rx.nicRxBusyPs, bytes, w);
        rx.rxDmaBusyPs = step(machine.rxDma(), rx.rxDmaBusyPs, bytes, w);
        return w[END];
    }

    /** The resources of one NIC: the time each becomes free. Owned by the threads of that NIC's host. */
    public static final class Timeline {
        long txDmaBusyPs;
        long nicTxBusyPs;
        long linkOutBusyPs;
        long linkInBusyPs;
        long nicRxBusyPs;
        long rxDmaBusyPs;

        /** A NIC whose resources are all free from time 0. */
        public Timeline() {
        }

        /**
         * When the NIC's link to the switch is free again.
         *
         * @return picoseconds
         */
        public long linkOutBusyPs() {
            return linkOutBusyPs;
        }

        /**
         * When the switch port to this NIC is free again.
         *
         * @return picoseconds
         */
        public long linkInBusyPs() {
            return linkInBusyPs;
        }
    }

    /** A frame's times at the switch port of its receiver. Mutable, reused. */
    public static final class Flight {
        /** When the frame's first byte reaches the port, picoseconds. */
        public long headAtSwitchPs;
        /** When its last byte does, picoseconds. */
        public long tailAtSwitchPs;
        /** Scratch: when the frame's first bytes and all of it left the last stage. */
        final long[] way = new long[2];

        /** Times not yet set. */
        public Flight() {
        }
    }
}
