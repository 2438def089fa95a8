package org.jhpvm.fm;

/**
 * One option an FM job accepts by name, as {@link FmJob.Builder#option(String, String)} takes it and
 * {@link FmJob#options()} lists it (its own {@code fm.*} settings and the fabric's {@code fabric.*} ones, passed
 * down). The list is the parsers' own tables, so a key is listed if and only if it is accepted.
 *
 * @param key          the full name, e.g. {@code fm.windowFrames} or {@code fabric.frameBytes}
 * @param type         what the value is: {@code int}, {@code long}, {@code boolean}, {@code nanoseconds}, ...
 * @param defaultValue the value used when the key is not given ({@code auto}: derived, as the meaning says);
 *                     passing it explicitly gives the same configuration
 * @param meaning      one line for people
 */
public record FmOption(String key, String type, String defaultValue, String meaning) {
}
