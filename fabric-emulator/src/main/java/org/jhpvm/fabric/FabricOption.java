package org.jhpvm.fabric;

/**
 * One setting of the emulated fabric that layers above pass by name ({@code fabric.KEY=VALUE}), as
 * {@link FabricConfig.Builder#option(String, String)} accepts it and {@link FabricConfig#options()} lists it: the
 * list is the parser's own table, so a key is listed if and only if it is accepted.
 *
 * @param key          the name without the {@code fabric.} prefix, e.g. {@code frameBytes}
 * @param type         what the value is: {@code int}, {@code long}, {@code probability} (0..1), ...
 * @param defaultValue the value used when the key is not given ({@code auto}: derived from other settings, as the
 *                     meaning says); passing it explicitly gives the same configuration
 * @param meaning      one line for people
 */
public record FabricOption(String key, String type, String defaultValue, String meaning) {
}
