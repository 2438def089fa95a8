package org.jhpvm.fm;

/**
 * A snapshot of one endpoint's protocol counters.
 *
 * @param messagesSent        messages sent (each {@code send4}, {@code send}, or ended 2.x message)
 * @param framesSent          data frames sent for the first time
 * @param bytesSent           message bytes sent
 * @param messagesHandled     messages whose handler has returned
 * @param framesConsumed      data frames consumed by handlers (or discarded after a handler returned early)
 * @param bytesReceived       message bytes received by handlers
 * @param handlersInline      handlers run on the extracting thread (the whole message was there)
 * @param handlersSuspended   handlers run on a virtual thread because they had to wait for frames
 * @param framesRetransmitted data frames sent again (after a timeout, a negative acknowledgement or a rejection)
 * @param timeouts            retransmission timeouts
 * @param acksSent            explicit acknowledgement frames sent (most acknowledgements ride on data frames)
 * @param nacksSent           negative acknowledgements sent (a gap, or a frame rejected for lack of room)
 * @param checksumRejects     frames dropped because their CRC32C did not match (corruption)
 * @param duplicateRejects    frames dropped because they had been accepted already (duplicates, retransmissions)
 * @param orderRejects        frames dropped because an earlier frame of the pair was missing (loss, reordering)
 * @param bufferRejects       frames dropped because the receive queue was full (return-to-sender flow control)
 * @param flowControlWaits    times a send had to wait for window space or a frame (or for its rendezvous to end)
 * @param rendezvousMessages  messages sent by rendezvous (their bytes pulled by the receiver's RDMA, no frames)
 * @param handlerResumes      times extract woke a suspended handler with a frame; a receive that spans frames is
 *                            filled by extract frame by frame and wakes its handler once, when it is complete
 */
public record FmCounters(
    long messagesSent,
    long framesSent,
    long bytesSent,
    long messagesHandled,
    long framesConsumed,
    long bytesReceived,
    long handlersInline,
    long handlersSuspended,
    long framesRetransmitted,
    long timeouts,
    long acksSent,
    long nacksSent,
    long checksumRejects,
    long duplicateRejects,
    long orderRejects,
    long bufferRejects,
    long flowControlWaits,
    long rendezvousMessages,
    long handlerResumes) {

    /**
     * Adds up the frames this endpoint dropped on arrival, whatever the reason (checksum, duplicate, order, full
     * receive queue); each of them is recovered by the protocol, so this counts work, not lost messages.
     *
     * @return frames rejected for any reason
     */
    public long rejects() {
        return checksumRejects + duplicateRejects + orderRejects + bufferRejects;
    }

    /**
     * Adds two snapshots counter by counter, e.g. to total a job's PEs; neither is changed.
     *
     * @param o other counters
     * @return the element-wise sum
     */
    public FmCounters plus(final FmCounters o) {
        return new FmCounters(messagesSent + o.messagesSent, framesSent + o.framesSent, bytesSent + o.bytesSent,
            messagesHandled + o.messagesHandled, framesConsumed + o.framesConsumed, bytesReceived + o.bytesReceived,
            handlersInline + o.handlersInline, handlersSuspended + o.handlersSuspended,
            framesRetransmitted + o.framesRetransmitted, timeouts + o.timeouts, acksSent + o.acksSent,
            nacksSent + o.nacksSent, checksumRejects + o.checksumRejects, duplicateRejects + o.duplicateRejects,
            orderRejects + o.orderRejects, bufferRejects + o.bufferRejects, flowControlWaits + o.flowControlWaits,
            rendezvousMessages + o.rendezvousMessages, handlerResumes + o.handlerResumes);
    }

    /**
     * Returns counters that are all zero, the start of a sum with {@link #plus(FmCounters)}.
     *
     * @return all zero
     */
    public static FmCounters zero() {
        return new FmCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
