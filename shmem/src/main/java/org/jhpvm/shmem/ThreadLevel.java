package org.jhpvm.shmem;

/**
 * The thread levels of {@code shmem_init_thread} and {@code shmem_query_thread}, in increasing order. A job asks for
 * one ({@link ShmemJob.Builder#threadLevel}); every PE provides the level asked for ({@link Shmem#queryThread()}).
 */
public enum ThreadLevel {
    /** {@code SHMEM_THREAD_SINGLE}: the program has one thread. */
    SINGLE,
    /** {@code SHMEM_THREAD_FUNNELED}: only the PE's own thread calls SHMEM (the default). */
    FUNNELED,
    /** {@code SHMEM_THREAD_SERIALIZED}: any thread of the PE may call, one at a time. */
    SERIALIZED,
    /**
     * {@code SHMEM_THREAD_MULTIPLE}: several threads of the PE call at once. Their calls take turns at the PE's
     * endpoint; a thread waiting for something another thread may do (a point-to-point wait, a barrier or other
     * collective, a lock) lets the others call meanwhile. Each thread has its own contexts in use. Collectives on one
     * team must not be called by two threads of a PE at once, as OpenSHMEM says.
     */
    MULTIPLE
}
