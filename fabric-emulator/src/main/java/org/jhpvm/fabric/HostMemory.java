package org.jhpvm.fabric;

import java.lang.foreign.MemorySegment;

/**
 * Memory the NICs of one host share with each other's hosts: a NIC's host creates a segment under a name, and every
 * process of the same host can map it and load, store and run atomics on it directly, with no NIC and no thread of the
 * owner involved (what native OpenSHMEM's shared segments and UCX's posix transport give the processes of a node).
 * A fabric offers it through {@link Fabric#hostMemory()}; which NICs share a host is the fabric's to say
 * ({@link #reaches}).
 * <p>
 * Segments are named by (NIC, name): the NIC whose host created it, and a number the creator chooses (a symmetric
 * object's id). A segment lives from {@link #create} until {@link #remove}; a mapping from {@link #map} until
 * {@link #unmap}. Touching a segment after its creator removed it, or after this process unmapped it, throws
 * {@link IllegalStateException} (the memory is never reached once given back). Every segment of a job is removed when
 * the job ends, however it ends (the fabric says where they live and who removes them).
 * <p>
 * Thread-safety: every method may be called from any thread (they are set-up calls, not the data path); the segments
 * themselves are memory, shared like any other.
 */
public interface HostMemory {
    /**
     * Whether this process can map the segments NIC {@code nic}'s host creates: it runs on the same host (a NIC of this
     * process is reached too).
     *
     * @param nic a NIC of the fabric
     * @return true if {@link #map} of its segments works here
     */
    boolean reaches(int nic);

    /**
     * Creates segment {@code name} of NIC {@code nic}, a NIC of this process: {@code bytes} long, zeroed, aligned to
     * at least 64 bytes.
     *
     * @param nic   a NIC this process hosts
     * @param name  the segment's name among that NIC's segments
     * @param bytes its length, at least 0
     * @return the segment, usable by this process until {@link #remove}
     * @throws IllegalArgumentException if {@code nic} is not a NIC of this process, {@code bytes} is negative, or the
     *                                  name is taken
     * @throws IllegalStateException    if the host has no room for it (naming the bytes wanted and free)
     */
    MemorySegment create(int nic, int name, long bytes);

    /**
     * Maps segment {@code name} of NIC {@code nic}. Mapping a segment this process already mapped (or created) answers
     * the same segment; each {@code map} is matched by an {@link #unmap}.
     *
     * @param nic  a NIC this process {@link #reaches}
     * @param name the segment's name
     * @return the segment
     * @throws IllegalArgumentException if {@code nic} is not reached from here
     * @throws IllegalStateException    if that NIC has no such segment (naming it)
     */
    MemorySegment map(int nic, int name);

    /**
     * Gives back one {@link #map} of the segment; the last one unmaps it from this process.
     *
     * @param nic  the NIC whose segment it is
     * @param name the segment's name
     * @throws IllegalArgumentException if this process has no such mapping
     */
    void unmap(int nic, int name);

    /**
     * Tells NIC {@code nic}'s host that this thread has stored into its segments (a put, an atomic, a signal): a thread
     * of that host waiting in {@link Nic#receive} or {@link Nic#sleep} returns and looks, as at an RDMA write into
     * its registered memory, so a wait for the store ({@code wait_until}) ends at once rather than at its next look.
     * A store made before this call is never missed by a wait that looked before it. Call after the stores, from the
     * data path: it costs an atomic add, and a wake-up only where someone sleeps. The default does nothing (the
     * host's waits then notice stores at their next look).
     *
     * @param nic the NIC whose segments were stored into (one this process {@link #reaches}; not checked)
     */
    default void written(final int nic) {
    }

    /**
     * Removes a segment this process created: its name is free again; other processes' mappings stay valid until they
     * unmap them (the memory goes with the last one), this process's own use of it ends now.
     *
     * @param nic  the NIC that created it (of this process)
     * @param name the segment's name
     * @throws IllegalArgumentException if this process created no such segment
     */
    void remove(int nic, int name);
}
