package org.jhpvm.fabric;

/**
 * What a fabric guarantees, read by the layer above so that it adds only what is missing (the VIA paper's
 * lesson: no second layer of acknowledgements over a reliable transport).
 *
 * @param reliable       every frame handed to the fabric arrives once and intact (no drop, corruption, duplicate)
 * @param ordered        frames on one source-to-destination path arrive in the order sent
 * @param flowControlled a sender waits for room at the receiver instead of losing frames (back-pressure)
 * @param remoteDma      registered memory regions with remote DMA write and read between them, and completion
 *                       queues, are available ({@link Nic#register(Object)}, {@link Nic#post(WorkDescriptor)}: the VIA
 *                       model); the NIC's reliable-connection protocol delivers RDMA exactly once and intact even
 *                       where frames are not reliable
 * @param buffered       the fabric holds in-flight frames beyond the receive ring, in a transport-managed window far
 *                       larger than a host's receive queue (Aeron's term buffers, MBs), so a receiver that does not
 *                       poll for a while stalls its senders only after that window fills. A layer above may then
 *                       leave frames in the fabric instead of rejecting them back to their senders. The emulated
 *                       Myrinet never buffers beyond its rings, so it says false
 * @param nicHandlers    the target NIC runs handlers of its own ({@link Nic#registerNicHandler}) on registered memory
 *                       when a NIC message arrives, without the target host (the LANai's programmability); like
 *                       RDMA, NIC messages are delivered exactly once and intact
 */
public record FabricCapabilities(boolean reliable, boolean ordered, boolean flowControlled, boolean remoteDma,
                                 boolean buffered, boolean nicHandlers) {
    /**
     * Capabilities of a fabric without NIC handlers.
     *
     * @param reliable       see the record
     * @param ordered        see the record
     * @param flowControlled see the record
     * @param remoteDma      see the record
     * @param buffered       see the record
     */
    public FabricCapabilities(final boolean reliable, final boolean ordered, final boolean flowControlled,
                              final boolean remoteDma, final boolean buffered) {
        this(reliable, ordered, flowControlled, remoteDma, buffered, false);
    }

    /**
     * Capabilities of a fabric that does not buffer beyond its rings.
     *
     * @param reliable       see the record
     * @param ordered        see the record
     * @param flowControlled see the record
     * @param remoteDma      see the record
     */
    public FabricCapabilities(final boolean reliable, final boolean ordered, final boolean flowControlled,
                              final boolean remoteDma) {
        this(reliable, ordered, flowControlled, remoteDma, false, false);
    }

    /**
     * Whether the fabric gives every guarantee at once: reliable, ordered, flow-controlled and buffered.
     *
     * @return true if the fabric delivers every frame once, intact, in order, with back-pressure and a deep buffer:
     *     the layer above needs no sequence checks, acknowledgements, retransmission or rejection of its own
     */
    public boolean endToEndReliable() {
        return reliable && ordered && flowControlled && buffered;
    }
}
