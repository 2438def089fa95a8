package org.jhpvm.fabric.timing;

import java.util.Map;
import java.util.Objects;

/**
 * A machine the virtual clock keeps the time of: the cost of every stage a frame passes from one host's memory to
 * another's, with the model's switches already applied. Read from a machine file by {@link MachineFiles}; the
 * arithmetic that uses it is {@link TimingModel}'s.
 * <p>
 * The stages, in a frame's order: the sending host's work ({@code hostSend}: its overhead and, with programmed I/O,
 * its writes across the I/O bus), the NIC's send DMA from host memory ({@code txDma}), the NIC processor's send
 * work ({@code nicTx}), the link (latency of wire and switch, serialisation at the link's rate; contention for the
 * sender's link and for the switch port to the receiver), the receiving NIC's work ({@code nicRx}), its DMA into
 * host memory ({@code rxDma}), and the receiving host's work ({@code hostRecv}: dispatch, copies). An empty poll
 * costs the host {@code hostPollPs}. The NIC stages, the DMA engines and the links are resources: a frame waits
 * while one is busy with a frame ahead of it.
 *
 * @param name        the machine's name
 * @param description what it is
 * @param cpuScale    factor applied to the CPU time a PE's thread spends between fabric calls (this machine's
 *                    speed over the modelled one's), when compute time is measured
 * @param headerBytes bytes of header the modelled NIC puts on every frame on the wire
 * @param packetBytes payload bytes of the modelled messaging layer's packets, 0 if the model takes the fabric's
 *                    frame size; the benchmarks run with frames of this size
 * @param hostSend    the sending host's work per frame (on its own clock)
 * @param txDma       the send DMA engine
 * @param nicTx       the sending NIC's processor
 * @param linkLatencyPs wire and switch latency of a frame's first byte
 * @param link        the link's serialisation (its per-byte cost; its fixed cost is 0)
 * @param nicRx       the receiving NIC's processor
 * @param rxDma       the receive DMA engine
 * @param hostRecv    the receiving host's work per frame (on its own clock)
 * @param hostPollPs  the cost of a poll that finds nothing
 * @param switches    the switch settings this model was made with (name to value), in file order
 * @param layers      costs the layers above the fabric charge for their own work on this machine, by key
 *                    ({@code mpi.send_ns}, {@code mpi.recv_ns}, {@code mpi.recv_MBps}: MPI-FM's per-message
 *                    software and its copy into the user's buffer); a key not given costs nothing
 */
public record MachineModel(String name, String description, double cpuScale, int headerBytes, int packetBytes,
                           Stage hostSend, Stage txDma, Stage nicTx, long linkLatencyPs, Stage link, Stage nicRx,
                           Stage rxDma, Stage hostRecv, long hostPollPs, Map<String, String> switches,
                           Map<String, Double> layers) {
    /** Checks the fields. */
    public MachineModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(hostSend, "hostSend");
        Objects.requireNonNull(txDma, "txDma");
        Objects.requireNonNull(nicTx, "nicTx");
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(nicRx, "nicRx");
        Objects.requireNonNull(rxDma, "rxDma");
        Objects.requireNonNull(hostRecv, "hostRecv");
        switches = Map.copyOf(switches);
        layers = Map.copyOf(layers);
        if (!(cpuScale >= 0) || headerBytes < 0 || packetBytes < 0 || linkLatencyPs < 0 || hostPollPs < 0) {
            throw new IllegalArgumentException("machine " + name + ": cpu_scale, header_bytes, packet_bytes, "
                + "latencies and the poll cost must not be negative");
        }
        if (hostSend.leastFixedPs() + nicTx.leastFixedPs() + linkLatencyPs == 0) {
            // The virtual clocks of the PEs advance in steps of at least the smallest frame's latency: it must be
            // more than nothing, or no PE could ever be sure it has seen every frame that arrives by its time.
            throw new IllegalArgumentException("machine " + name + ": stages.host_send.fixed_ns, "
                + "stages.nic_tx.fixed_ns and stages.link.latency_ns are all 0: a frame would take no time");
        }
        if (hostPollPs == 0) {
            throw new IllegalArgumentException("machine " + name + ": stages.host_poll.fixed_ns must be > 0");
        }
    }

    /**
     * A machine whose layers above the fabric cost nothing of their own.
     *
     * @param name        see the record
     * @param description see the record
     * @param cpuScale    see the record
     * @param headerBytes see the record
     * @param packetBytes see the record
     * @param hostSend    see the record
     * @param txDma       see the record
     * @param nicTx       see the record
     * @param linkLatencyPs see the record
     * @param link        see the record
     * @param nicRx       see the record
     * @param rxDma       see the record
     * @param hostRecv    see the record
     * @param hostPollPs  see the record
     * @param switches    see the record
     */
    public MachineModel(final String name, final String description, final double cpuScale, final int headerBytes,
                        final int packetBytes, final Stage hostSend, final Stage txDma, final Stage nicTx,
                        final long linkLatencyPs, final Stage link, final Stage nicRx, final Stage rxDma,
                        final Stage hostRecv, final long hostPollPs, final Map<String, String> switches) {
        this(name, description, cpuScale, headerBytes, packetBytes, hostSend, txDma, nicTx, linkLatencyPs, link, nicRx,
            rxDma, hostRecv, hostPollPs, switches, Map.of());
    }
}
