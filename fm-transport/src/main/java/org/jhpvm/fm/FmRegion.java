package org.jhpvm.fm;

/**
 * Memory registered with a PE's endpoint ({@link FastMessages#register(Object)}): the local side of RDMA, the room a
 * NIC message's reply lands in, and, under its handle and key, what other PEs' RDMA and NIC handlers may reach.
 * Immutable; usable until deregistered.
 */
public interface FmRegion {
    /**
     * The region's name at its PE: what another PE's RDMA names ({@code remoteHandle}) and a NIC handler looks up.
     *
     * @return the handle
     */
    int handle();

    /**
     * The protection key a remote request must present with the handle.
     *
     * @return the key
     */
    int key();

    /**
     * The registered memory itself.
     *
     * @return the primitive array (or {@link java.lang.foreign.MemorySegment}) given to {@code register}
     */
    Object memory();

    /**
     * The region's length.
     *
     * @return bytes it spans
     */
    long lengthBytes();
}
