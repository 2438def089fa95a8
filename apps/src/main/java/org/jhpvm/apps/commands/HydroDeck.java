package org.jhpvm.apps.commands;

import java.io.IOException;
import java.io.Reader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import org.jhpvm.hydro.AtomicFiles;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code hydro}'s input decks: a Java properties file (read and written with {@code java.util.Properties}) whose keys
 * are the command's option names without the dashes ({@code zones = 64}, {@code t-end = 0.2}, {@code left = 1,0,1},
 * {@code scaling = true}) and {@code problem} for the problem. Options given on the command line override the deck.
 * A key that is no option is refused, naming the nearest valid key; a value is checked as the option's value on the
 * command line is. Every run with {@code --out} writes the complete deck it used, defaults resolved
 * ({@code DIR/PROBLEM.deck}), so {@code hydro --deck DIR/PROBLEM.deck --out NEW} runs it again exactly. The deck
 * records where its run wrote ({@code out}, {@code json}, {@code checkpoint}), but a rerun that does not name those
 * on its command line is refused: it would overwrite the results the deck came from (give the same paths to
 * replace them).
 */
final class HydroDeck {
    static final String PROBLEM = "problem";
    /** Options that are not part of a run's description. */
    private static final Set<String> NOT_IN_DECKS = Set.of("deck", "help", "version");
    /**
     * Where a run writes: recorded, so a deck says where its results are, but a rerun takes them only from its own
     * command line, so that it never overwrites the results the deck came from unasked.
     */
    static final List<String> OUTPUTS = List.of("out", "json", "checkpoint");

    private HydroDeck() {
    }

    /**
     * Runs the command again with the deck's entries that the command line did not give.
     *
     * @param deck  the deck
     * @param spec  the parsed command
     * @return the rerun's exit code
     * @throws IllegalArgumentException for a deck that cannot be read, an unknown key or a bad value
     */
    static int rerun(final Path deck, final CommandSpec spec) throws IOException {
        final String[] args = merge(deck, spec, spec.commandLine().getParseResult());
        final HydroCommand again = new HydroCommand();
        try {
            new CommandLine(again).parseArgs(args);
        } catch (final CommandLine.ParameterException e) {
            throw new IllegalArgumentException("deck " + deck + ": " + e.getMessage(), e);
        }
        return again.call();
    }

    /** The arguments of the rerun: the deck's entries the command line lacks, then the command line without --deck. */
    static String[] merge(final Path deck, final CommandSpec spec, final ParseResult given) {
        final Properties p = load(deck);
        final List<String> args = new ArrayList<>();
        String problem = null;
        final List<String> written = new ArrayList<>();
        for (final String key : OUTPUTS) {
            final OptionSpec o = spec.findOption("--" + key);
            if (p.getProperty(key) != null && !given.hasMatchedOption(o)) {
                written.add(key + "=" + p.getProperty(key).trim());
            }
        }
        if (!written.isEmpty()) {
            throw new IllegalArgumentException("deck " + deck + ": its run wrote " + String.join(", ", written)
                + "; a rerun would overwrite that: give " + String.join(" and ", written.stream().map(w -> "--"
                + w.substring(0, w.indexOf('='))).toList()) + " (the same to replace it)");
        }
        for (final String key : new TreeSet<>(p.stringPropertyNames())) {
            final String value = p.getProperty(key).trim();
            if (PROBLEM.equals(key)) {
                problem = value;
                continue;
            }
            final OptionSpec o = NOT_IN_DECKS.contains(key) ? null : spec.findOption("--" + key);
            if (o == null) {
                throw new IllegalArgumentException("deck " + deck + ": unknown key '" + key + "'" + nearest(key, spec));
            }
            if (given.hasMatchedOption(o)) {
                continue; // the command line overrides the deck
            }
            if (o.type() == boolean.class || o.type() == Boolean.class) {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new IllegalArgumentException("deck " + deck + ": " + key + " = " + value + ": true or false");
                }
                if (value.equals("true")) {
                    args.add("--" + key);
                }
            } else {
                args.add("--" + key);
                args.add(value);
            }
        }
        // The command line after the command's own name (the top-level parse keeps the whole line).
        final List<String> all = given.originalArgs();
        final int at = all.indexOf(spec.name());
        final List<String> line = new ArrayList<>(all.subList(at + 1, all.size()));
        for (int i = 0; i < line.size(); i++) {
            if (line.get(i).equals("--deck")) {
                line.remove(i);
                line.remove(i);
                i--;
            } else if (line.get(i).startsWith("--deck=")) {
                line.remove(i);
                i--;
            }
        }
        if (problem != null && !given.hasMatchedPositional(0)) {
            args.add(0, problem);
        }
        args.addAll(line);
        return args.toArray(new String[0]);
    }

    private static Properties load(final Path deck) {
        final Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(deck, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (final IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("deck " + deck + ": cannot be read (" + e.getMessage() + ")", e);
        }
        return p;
    }

    /** {@code " (did you mean 'x'?)"} for the valid key nearest to {@code key}, by edit distance. */
    static String nearest(final String key, final CommandSpec spec) {
        String best = PROBLEM;
        int bestDistance = distance(key, PROBLEM);
        for (final OptionSpec o : spec.options()) {
            final String name = o.longestName().replaceFirst("^-+", "");
            if (NOT_IN_DECKS.contains(name)) {
                continue;
            }
            final int d = distance(key, name);
            if (d < bestDistance) {
                best = name;
                bestDistance = d;
            }
        }
        return " (did you mean '" + best + "'?)";
    }

    private static int distance(final String a, final String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            final int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /**
     * Writes the complete deck of a run: every entry, in a properties file moved into place when complete.
     *
     * @param file    the deck's path
     * @param entries key to value, in the order to write
     * @throws IOException if it cannot be written
     */
    static void write(final Path file, final Map<String, String> entries) throws IOException {
        AtomicFiles.write(file, stream -> {
            final Writer w = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
            w.write("# jhpvm hydro input deck: the complete set of options of the run that wrote it.\n");
            w.write("# Rerun it with: bin/jhpvm hydro --deck " + file.getFileName() + " --out NEWDIR (the command "
                + "line overrides it; a rerun names its own out, json and checkpoint, so it never overwrites the "
                + "results below unasked).\n");
            for (final Map.Entry<String, String> e : entries.entrySet()) {
                final Properties one = new Properties();
                one.setProperty(e.getKey(), e.getValue());
                final java.io.StringWriter line = new java.io.StringWriter();
                one.store(line, null);
                // store() writes a date comment first; keep the key = value line only, escaped as load() reads it
                for (final String l : line.toString().split("\\R")) {
                    if (!l.startsWith("#") && !l.isEmpty()) {
                        w.write(l + "\n");
                    }
                }
            }
            w.flush();
        });
    }
}
