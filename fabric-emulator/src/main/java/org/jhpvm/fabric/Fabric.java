package org.jhpvm.fabric;

/**
 * A system-area network of NICs, one per node: the SPI that Fast Messages is written against. FM depends on this
 * interface and on {@link FabricCapabilities}, never on an implementation's classes.
 * <p>
 * Implementations: the emulated Myrinet ({@link EmulatedMyrinet}), the embedded default. The SPI leaves room for
 * what the VIA paper describes (registered memory regions, remote DMA, completion queues) as a capability that
 * an implementation advertises in {@link #capabilities()}.
 * <p>
 * Thread-safety: the fabric object is thread-safe; each {@link Nic}'s host interface is used by one host thread
 * at a time (see {@link Nic}).
 */
public interface Fabric extends AutoCloseable {
    /** @return number of NICs (nodes), ids {@code 0 .. nicCount()-1} */
    int nicCount();

    /** @return payload capacity of every frame in bytes (the MTU) */
    int frameBytes();

    /** @return length of the opaque header area of every frame in bytes */
    int headerBytes();

    /**
     * @return frames a NIC's receive ring holds; a host that keeps this many delivered frames unreleased stops the
     *     frames of every sender to it (the layer above sizes its receive queue from this)
     */
    int receiveRingCapacity();

    /**
     * @return frames in each NIC's send pool; frames that a host sent and that receivers have not yet released
     *     count against it (the layer above sizes its send window from this)
     */
    int poolFrames();

    /** @return what this fabric guarantees, so the layer above does only the work it must */
    FabricCapabilities capabilities();

    /**
     * @param id NIC id
     * @return the NIC
     * @throws IndexOutOfBoundsException if the id is not {@code 0 .. nicCount()-1}
     */
    Nic nic(int id);

    /** @return the counters of all NICs added up (a snapshot) */
    NicCounters totals();

    /** @return true once {@link #close()} has been called */
    boolean isClosed();

    /**
     * Closes the fabric: every blocked sender and receiver is released with a {@link FabricClosedException}, and
     * every later call on a NIC throws one. Idempotent.
     */
    @Override
    void close();
}
