package org.jhpvm.fabric;

/**
 * A NIC's counters of registered memory, RDMA and NIC messages (a snapshot); the frame counters are
 * {@link NicCounters}.
 *
 * @param registrations      regions registered (a cached registration counts once)
 * @param cacheHits          registrations of memory already registered, answered from the registration cache
 * @param deregistrations    regions deregistered
 * @param rdmaWrites         RDMA writes completed successfully
 * @param rdmaReads          RDMA reads completed successfully
 * @param rdmaBytes          bytes moved by them
 * @param nicMessagesSent    NIC messages this NIC posted that completed successfully
 * @param nicMessagesHandled NIC messages this NIC's handlers served
 * @param errors             requests posted here that completed with an error (memory untouched)
 * @param refusedAtTarget    requests from other NICs this NIC refused (unknown handle, wrong key, out of bounds, no
 *                           handler, rejected)
 * @param segmentsLost       segments the fault plan dropped or took down with a link
 * @param segmentsCorrupted  segments whose checksum failed at the receiving NIC
 * @param segmentsDuplicated duplicate segments the receiving NIC discarded
 * @param retransmissions    segments the reliable-connection protocol sent again
 */
public record RdmaCounters(long registrations, long cacheHits, long deregistrations, long rdmaWrites, long rdmaReads,
                           long rdmaBytes, long nicMessagesSent, long nicMessagesHandled, long errors,
                           long refusedAtTarget, long segmentsLost, long segmentsCorrupted, long segmentsDuplicated,
                           long retransmissions) {
    /**
     * All zero: the counters of a NIC without RDMA.
     *
     * @return the zero snapshot
     */
    public static RdmaCounters zero() {
        return new RdmaCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
