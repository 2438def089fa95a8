package org.jhpvm.shmem;

/**
 * One option a SHMEM job accepts by name, as {@link ShmemJob.Builder#option(String, String)} takes it and
 * {@link ShmemJob#options()} lists it: SHMEM's own {@code shmem.*} settings and the layers' below ({@code fm.*},
 * {@code fabric.*}), passed down. The list is the parsers' own tables, so a key is listed if and only if it is
 * accepted.
 *
 * @param key          the full name, e.g. {@code shmem.heapBytes}
 * @param type         what the value is: {@code bytes} (with K/M/G/T suffixes), {@code int}, {@code nanoseconds}, ...
 * @param defaultValue the value used when the key is not given ({@code auto}: derived, as the meaning says);
 *                     passing it explicitly gives the same configuration
 * @param meaning      one line for people
 */
public record ShmemOption(String key, String type, String defaultValue, String meaning) {
}
