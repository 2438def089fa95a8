package org.jhpvm.fabric;

import java.util.Optional;

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
    /**
     * The number of NICs in the fabric, fixed when it is made: every NIC id a frame may name as its destination is
     * below it. On a {@link ProcessFabric} it counts the NICs of every process, not only the local ones.
     *
     * @return number of NICs (nodes), ids {@code 0 .. nicCount()-1}
     */
    int nicCount();

    /**
     * The largest payload one frame carries, the same for every NIC and fixed for the life of the fabric; a length
     * beyond it is refused by {@link Frame#setLength(int)} and by a send.
     *
     * @return payload capacity of every frame in bytes (the MTU)
     */
    int frameBytes();

    /**
     * The size of the opaque header area that every frame carries for the layer above (FM's sequence numbers,
     * acknowledgements, handler id); the fabric moves it unread. Fixed for the life of the fabric, possibly 0.
     *
     * @return length of the opaque header area of every frame in bytes
     */
    int headerBytes();

    /**
     * How many delivered frames a NIC holds for its host before senders to it must wait. Fixed for the life of the
     * fabric.
     *
     * @return frames a NIC's receive ring holds; a host that keeps this many delivered frames unreleased stops the
     *     frames of every sender to it (the layer above sizes its receive queue from this)
     */
    int receiveRingCapacity();

    /**
     * How many frames each NIC can have out at once: when all are out, {@link Nic#tryAcquire()} returns null until
     * some come back. A frame the fabric copies on its way (a small frame the emulated Myrinet writes into a receive
     * slot, a frame Aeron carries to another process) comes back as soon as it is copied; only a frame moved by
     * reference stays out until its receiver releases it. Fixed for the life of the fabric.
     *
     * @return frames in each NIC's send pool; frames that a host sent and that receivers have not yet released
     *     count against it (the layer above sizes its send window from this)
     */
    int poolFrames();

    /**
     * The guarantees this fabric gives (reliable, ordered, flow-controlled, buffered), fixed for its life: FM reads
     * them to choose how much of its own protocol (sequence checks, acknowledgements, retransmission) to run.
     *
     * @return what this fabric guarantees, so the layer above does only the work it must
     */
    FabricCapabilities capabilities();

    /**
     * Whether this fabric keeps a virtual clock ({@code fabric.clock=virtual}): its NICs keep a modelled machine's
     * time, which {@link VirtualTime} reads. Fixed for the life of the fabric.
     *
     * @return true for a virtual-time fabric; false (the default) for one on the wall clock
     */
    default boolean virtualClock() {
        return false;
    }

    /**
     * Memory the NICs of one host share ({@link HostMemory}): segments that the processes of a host load, store and
     * run atomics on directly. Fixed for the life of the fabric.
     *
     * @return the host memory, or empty where this fabric offers none (a virtual-time fabric: direct loads and
     *     stores would escape its clock)
     */
    default Optional<HostMemory> hostMemory() {
        return java.util.Optional.empty();
    }

    /**
     * The NIC with the given id, the same object on every call; safe to call from any thread. A
     * {@link ProcessFabric} gives out only the NICs this process hosts.
     *
     * @param id NIC id
     * @return the NIC
     * @throws IndexOutOfBoundsException if the id is not {@code 0 .. nicCount()-1}
     * @throws IllegalArgumentException  on a {@link ProcessFabric}, if another process hosts that NIC
     */
    Nic nic(int id);

    /**
     * Adds up the counters of every NIC. Each NIC's counters are read in turn while frames may still move, so the
     * sum balances as {@link NicCounters} describes only at quiescence. A {@link ProcessFabric} adds up only the
     * NICs this process hosts. Safe to call from any thread; allocates, so not for the data path.
     *
     * @return the counters of all NICs added up (a snapshot)
     */
    NicCounters totals();

    /**
     * Whether this fabric is closed, so that a caller can stop before its next NIC call throws
     * {@link FabricClosedException}. Safe to call from any thread.
     *
     * @return true once {@link #close()} has been called
     */
    boolean isClosed();

    /**
     * Closes the fabric: every blocked sender and receiver is released with a {@link FabricClosedException}, and
     * every later call on a NIC throws one. Idempotent.
     */
    @Override
    void close();
}
