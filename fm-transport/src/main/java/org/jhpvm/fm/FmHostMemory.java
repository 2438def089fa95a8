package org.jhpvm.fm;

import java.lang.foreign.MemorySegment;

/**
 * Memory this PE shares with the PEs of its host ({@link FastMessages#hostMemory()}): segments it creates under a
 * name, which every PE of the same host maps and loads, stores and runs atomics on directly, with no message and no
 * thread of the owner involved. The fabric's host memory seen by PE number; see the fabric SPI's {@code HostMemory}
 * for the lifetimes: a segment lives from {@link #create} to {@link #remove}, a mapping from {@link #map} to
 * {@link #unmap}, and touching either after its end throws {@link IllegalStateException}.
 * <p>
 * Thread-safety: any thread (set-up calls).
 */
public interface FmHostMemory {
    /**
     * Whether PE {@code pe}'s segments can be mapped by this PE (it runs on the same host; this PE itself too).
     *
     * @param pe a PE of the job
     * @return true if {@link #map} of its segments works here
     */
    boolean reaches(int pe);

    /**
     * Creates this PE's segment {@code name}: {@code bytes} long, zeroed, aligned to at least 64 bytes.
     *
     * @param name  the segment's name among this PE's segments
     * @param bytes its length, at least 0
     * @return the segment
     * @throws IllegalArgumentException if the name is taken or {@code bytes} is negative
     * @throws IllegalStateException    if the host has no room for it
     */
    MemorySegment create(int name, long bytes);

    /**
     * Maps PE {@code pe}'s segment {@code name} (this PE's own answers the segment it created).
     *
     * @param pe   a PE this PE {@link #reaches}
     * @param name the segment's name
     * @return the segment
     * @throws IllegalArgumentException if {@code pe} is not reached
     * @throws IllegalStateException    if it has no such segment
     */
    MemorySegment map(int pe, int name);

    /**
     * Gives back one {@link #map}.
     *
     * @param pe   the PE whose segment it is
     * @param name its name
     */
    void unmap(int pe, int name);

    /**
     * Tells PE {@code pe} that this thread has stored into its segments (a put, an atomic, a signal): a wait of that PE
     * asleep in FM returns and looks at once, as at an RDMA write into its memory, where it would otherwise notice
     * the store at its next look. Call after the stores; it costs an atomic add, and a wake-up where the PE sleeps.
     *
     * @param pe a PE this PE {@link #reaches} (not checked)
     */
    default void written(final int pe) {
    }

    /**
     * Removes this PE's segment {@code name}; the other PEs' mappings end when they unmap.
     *
     * @param name its name
     */
    void remove(int name);
}
