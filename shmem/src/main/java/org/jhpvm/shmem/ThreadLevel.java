package org.jhpvm.shmem;

/**
 * The thread levels of {@code shmem_init_thread} and {@code shmem_query_thread}, in increasing order. A job asks for
 * one ({@link ShmemJob.Builder#threadLevel}); the level provided ({@link Shmem#queryThread()}) is the one asked for,
 * up to {@link #SERIALIZED}, the highest implemented: {@link #MULTIPLE} is answered with {@code SERIALIZED}, as
 * OpenSHMEM allows a library to provide less than requested.
 */
public enum ThreadLevel {
    /** {@code SHMEM_THREAD_SINGLE}: the program has one thread. */
    SINGLE,
    /** {@code SHMEM_THREAD_FUNNELED}: only the PE's own thread calls SHMEM (the default). */
    FUNNELED,
    /** {@code SHMEM_THREAD_SERIALIZED}: any thread of the PE may call, one at a time. */
    SERIALIZED,
    /** {@code SHMEM_THREAD_MULTIPLE}: several threads at once: not provided here. */
    MULTIPLE
}
