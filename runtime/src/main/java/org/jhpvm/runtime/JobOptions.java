package org.jhpvm.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.text.similarity.LevenshteinDistance;
import org.jhpvm.mpi.MpiJob;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.ShmemOption;

/**
 * The configuration keys a user's program can be given ({@code bin/jhpvm run --option KEY=VALUE}, or
 * {@code --option KEY=VALUE} among the arguments of {@link Jhpvm#shmem}): every layer's options, as the layers'
 * own parsers list them ({@link ShmemJob#options()}: {@code shmem.*}, {@code fm.*}, {@code fabric.*}; Global
 * Arrays has no options of its own). A set of options is checked whole before anything runs: an unknown key is
 * named with the nearest valid one, a bad value with the layer's reason. Immutable.
 */
public final class JobOptions {
    private static final LevenshteinDistance DISTANCE = LevenshteinDistance.getDefaultInstance();

    private static final String MPI_PREFIX = "mpi.";

    private final Map<String, String> values;

    private JobOptions(final Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * The empty set of options.
     *
     * @return no options: every layer's defaults
     */
    public static JobOptions none() {
        return new JobOptions(Map.of());
    }

    /**
     * Checks options and keeps them.
     *
     * @param values key to value, in the order given (a later key overrides nothing: keys are unique)
     * @return the checked options
     * @throws IllegalArgumentException naming the first unknown key and the nearest known one, or the first bad value
     *                                  with the layer's reason (one line)
     */
    public static JobOptions of(final Map<String, String> values) {
        final ShmemJob.Builder probe = ShmemJob.builder();
        for (final Map.Entry<String, String> e : values.entrySet()) {
            if (!known(e.getKey())) {
                throw new IllegalArgumentException("unknown option '" + e.getKey() + "'" + suggestion(e.getKey())
                    + " (bin/jhpvm info --all lists every key)");
            }
            if (e.getKey().startsWith(MPI_PREFIX)) {
                MpiJob.builder().option(e.getKey(), e.getValue());
            } else {
                probe.option(e.getKey(), e.getValue());
            }
        }
        probe.build(); // ranges that depend on several settings (ring sizes against pools, ...)
        return new JobOptions(values);
    }

    /**
     * Parses {@code KEY=VALUE} strings (as given to {@code --option}) and checks them as {@link #of} does.
     *
     * @param pairs the strings
     * @return the checked options
     * @throws IllegalArgumentException for a string without '=', a key given twice, or what {@link #of} refuses
     */
    public static JobOptions parse(final List<String> pairs) {
        final Map<String, String> values = new LinkedHashMap<>();
        for (final String p : pairs) {
            final int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("option '" + p + "' is not KEY=VALUE");
            }
            final String key = p.substring(0, eq).trim();
            if (values.put(key, p.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException("option '" + key + "' given twice");
            }
        }
        return of(values);
    }

    /**
     * Every key a program accepts, with its type, default and meaning, as the layers' parsers list them.
     *
     * @return the keys, in the layers' order (SHMEM's first, then FM's, then the fabric's)
     */
    public static List<ShmemOption> known() {
        final List<ShmemOption> all = new ArrayList<>(ShmemJob.options());
        for (final MpiJob.Option o : MpiJob.options()) {
            all.add(new ShmemOption(o.key(), o.type(), o.defaultValue(), o.meaning()));
        }
        return List.copyOf(all);
    }

    /**
     * @param key a key
     * @return " (did you mean 'x'?)" naming the known key nearest to {@code key}, or "" if none is near
     */
    static String suggestion(final String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final ShmemOption o : known()) {
            final int d = DISTANCE.apply(key.toLowerCase(Locale.ROOT),
                o.key().toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = o.key();
            }
        }
        // Far-off names are not typos: a suggestion then misleads more than it helps.
        return best != null && bestDistance <= Math.max(3, key.length() / 3) ? " (did you mean '" + best + "'?)" : "";
    }

    private static boolean known(final String key) {
        for (final ShmemOption o : known()) {
            if (o.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The options as given.
     *
     * @return key to value, in the order given (unmodifiable)
     */
    public Map<String, String> values() {
        return values;
    }

    /**
     * Applies the options to a SHMEM job builder.
     *
     * @param builder the builder
     * @return the builder
     */
    public ShmemJob.Builder applyTo(final ShmemJob.Builder builder) {
        values.forEach((k, v) -> {
            if (!k.startsWith(MPI_PREFIX)) {
                builder.option(k, v);
            }
        });
        return builder;
    }

    /**
     * Passes the options an MPI job takes ({@code mpi.*}, {@code fm.*}, {@code fabric.*}) to its builder.
     *
     * @param builder the MPI job's builder
     * @return the builder
     */
    public MpiJob.Builder applyTo(final MpiJob.Builder builder) {
        values.forEach((k, v) -> {
            if (k.startsWith(MPI_PREFIX) || k.startsWith("fm.") || k.startsWith("fabric.")) {
                builder.option(k, v);
            }
        });
        return builder;
    }

    /**
     * The options as a command line gives them.
     *
     * @return {@code KEY=VALUE} strings, in the order given
     */
    public List<String> asPairs() {
        final List<String> pairs = new ArrayList<>();
        values.forEach((k, v) -> pairs.add(k + "=" + v));
        return pairs;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
