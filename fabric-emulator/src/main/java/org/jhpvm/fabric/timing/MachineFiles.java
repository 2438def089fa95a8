package org.jhpvm.fabric.timing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads machine files: JSON, one machine per file, checked against the schema below with an error that names the
 * key. The machines that come with jhpvm are resources of this package ({@link #BUNDLED}); a machine measured on the
 * host ({@code bin/jhpvm calibrate} writes {@value #THIS_MACHINE}) is found by name in {@link #machineDirectory()};
 * any other file is named by its path.
 * <pre>
 * {
 *   "schema": 1,
 *   "name": "sparc-sbus-1995",
 *   "description": "...",
 *   "cpu_scale": 1.0,            optional, default 1
 *   "header_bytes": 8,
 *   "packet_bytes": 128,         optional, default 0 (the fabric's frame size)
 *   "stages": {
 *     "host_send": {"fixed_ns": 1.0, "MBps": 50},
 *     "tx_dma":    {"enabled": false, "fixed_ns": 0, "MBps": 0, "cut_through": false},
 *     "nic_tx":    {"fixed_ns": 0.5, "MBps": 0, "cut_through": true},
 *     "link":      {"latency_ns": 0.5, "MBps": 80},
 *     "nic_rx":    {"fixed_ns": 0.5, "MBps": 0, "cut_through": true},
 *     "rx_dma":    {"enabled": true, "fixed_ns": 0, "MBps": 0, "cut_through": true},
 *     "host_recv": {"fixed_ns": 1.0, "MBps": 0},
 *     "host_poll": {"fixed_ns": 0.1}
 *   },
 *   "switches": {"lcp": {"description": "...", "default": "streamed",
 *                        "choices": {"streamed": {}, "baseline": {"stages.nic_tx.cut_through": false}}}},
 *   "sources": {"stages.link.MBps": "where the number comes from"}
 * }
 * </pre>
 * Every stage but {@code link} and {@code host_poll} may cost differently by frame size: {@code "segments":
 * [{"from_bytes": 32768, "fixed_ns": 2000, "MBps": 40000}, ...]} (frames of at least {@code from_bytes} on the wire,
 * up to the next segment's, by ascending {@code from_bytes}; see {@link Stage}).
 * Every stage but {@code link} and {@code host_poll} also takes {@code delay_ns} (the frame waits, the resource does
 * not) and {@code after_ns} (the resource works on after passing the frame on); see {@link Stage}. Every stage key but
 * {@code fixed_ns} of {@code host_send}, {@code link}'s two and {@code host_poll}'s is optional (0, or false). A
 * switch's choices override parameters by their full key, with a value or with {@code {"add": x}}, which adds to the
 * value before it; switches apply in the file's order.
 */
public final class MachineFiles {
    /** The machines that come with jhpvm, by name. */
    public static final List<String> BUNDLED = List.of("sparc-sbus-1995", "ppro-pci-1998", "modern-100g");

    /** The name of the machine {@code bin/jhpvm calibrate} measures. */
    public static final String THIS_MACHINE = "this-machine";

    /**
     * Where machines measured on this host are kept by name ({@code NAME.json}): the system property
     * {@code jhpvm.machines} if set, else {@code ~/.jhpvm/machines}.
     *
     * @return the directory (it may not exist yet)
     */
    public static Path machineDirectory() {
        final String dir = System.getProperty("jhpvm.machines");
        return dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".jhpvm", "machines");
    }

    /** The costs the layers above the fabric charge on a machine ({@link MachineModel#layers()}). */
    public static final List<String> LAYER_KEYS = List.of("mpi.send_ns", "mpi.recv_ns", "mpi.recv_MBps");

    /** Parameter keys and their kinds, in the order a listing shows them. */
    private static final Map<String, Kind> PARAMS = new LinkedHashMap<>();

    private enum Kind { NUMBER, INTEGER, FLAG, SEGMENTS }

    static {
        PARAMS.put("cpu_scale", Kind.NUMBER);
        PARAMS.put("header_bytes", Kind.INTEGER);
        PARAMS.put("packet_bytes", Kind.INTEGER);
        for (final String stage : List.of("host_send", "tx_dma", "nic_tx", "nic_rx", "rx_dma", "host_recv")) {
            if (stage.endsWith("dma")) {
                PARAMS.put("stages." + stage + ".enabled", Kind.FLAG);
            }
            PARAMS.put("stages." + stage + ".fixed_ns", Kind.NUMBER);
            PARAMS.put("stages." + stage + ".MBps", Kind.NUMBER);
            PARAMS.put("stages." + stage + ".delay_ns", Kind.NUMBER);
            PARAMS.put("stages." + stage + ".after_ns", Kind.NUMBER);
            PARAMS.put("stages." + stage + ".segments", Kind.SEGMENTS);
            if (!stage.startsWith("host")) {
                PARAMS.put("stages." + stage + ".cut_through", Kind.FLAG);
            }
        }
        PARAMS.put("stages.link.latency_ns", Kind.NUMBER);
        PARAMS.put("stages.link.MBps", Kind.NUMBER);
        PARAMS.put("stages.host_poll.fixed_ns", Kind.NUMBER);
        for (final String key : LAYER_KEYS) {
            PARAMS.put("layers." + key, Kind.NUMBER);
        }
    }

    private static final List<String> REQUIRED = List.of("header_bytes", "stages.host_send.fixed_ns",
        "stages.link.latency_ns", "stages.link.MBps", "stages.host_poll.fixed_ns");

    private MachineFiles() {
    }

    /**
     * A machine with its switches at their defaults, except those given.
     *
     * @param nameOrPath a bundled machine's name, or the path of a machine file
     * @param choices    switch name to choice, e.g. {@code lcp=baseline}
     * @return the model
     * @throws IllegalArgumentException naming the machine and the key for a file that breaks the schema, an unknown
     *                                  machine, switch or choice
     */
    public static MachineModel load(final String nameOrPath, final Map<String, String> choices) {
        return build(read(nameOrPath), choices);
    }

    /**
     * The switches a machine has, each with its choices and default, for listings ({@code info --all}).
     *
     * @param nameOrPath a bundled machine's name, or a machine file's path
     * @return switch name to a line "choice|choice (default choice): description"
     */
    public static Map<String, String> switches(final String nameOrPath) {
        final JsonNode root = read(nameOrPath);
        final Map<String, String> out = new LinkedHashMap<>();
        final JsonNode sw = root.path("switches");
        for (final Iterator<String> it = sw.fieldNames(); it.hasNext(); ) {
            final String name = it.next();
            final JsonNode s = sw.get(name);
            out.put(name, String.join("|", names(s.path("choices"))) + " (default " + s.path("default").asText()
                + "): " + s.path("description").asText(""));
        }
        return out;
    }

    /**
     * A number from a machine file's {@code notes} (what {@code bin/jhpvm calibrate} recorded of the machine it
     * measured), if the file has it.
     *
     * @param nameOrPath a machine's name, or a machine file's path
     * @param key        the note's key
     * @return the number, or NaN if there is none
     */
    public static double note(final String nameOrPath, final String key) {
        final JsonNode v = read(nameOrPath).path("notes").path(key);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    /**
     * Where each of a machine's numbers comes from, as its file says.
     *
     * @param nameOrPath a bundled machine's name, or a machine file's path
     * @return parameter key to source
     */
    public static Map<String, String> sources(final String nameOrPath) {
        final Map<String, String> out = new LinkedHashMap<>();
        read(nameOrPath).path("sources").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** A machine's name rather than a path: no directory, no extension. */
    private static boolean isName(final String s) {
        return !s.isEmpty() && s.indexOf('/') < 0 && s.indexOf('\\') < 0 && !s.endsWith(".json");
    }

    private static JsonNode read(final String nameOrPath) {
        final String where;
        final JsonNode root;
        try {
            if (BUNDLED.contains(nameOrPath)) {
                where = "machine " + nameOrPath;
                try (InputStream in = MachineFiles.class.getResourceAsStream("machines/" + nameOrPath + ".json")) {
                    if (in == null) {
                        throw new IllegalStateException("bundled machine file " + nameOrPath + ".json is missing");
                    }
                    root = new ObjectMapper().readTree(in);
                }
            } else {
                final Path named = isName(nameOrPath) ? machineDirectory().resolve(nameOrPath + ".json") : null;
                final Path path = named != null && Files.isRegularFile(named) ? named : Path.of(nameOrPath);
                if (!Files.isRegularFile(path)) {
                    throw new IllegalArgumentException("unknown machine '" + nameOrPath + "': neither a bundled "
                        + "machine " + BUNDLED + ", nor one measured here (" + machineDirectory() + "), nor a machine "
                        + "file" + (nameOrPath.equals(THIS_MACHINE) ? "; run bin/jhpvm calibrate to measure "
                            + THIS_MACHINE : ""));
                }
                where = "machine file " + path;
                root = new ObjectMapper().readTree(path.toFile());
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("machine " + nameOrPath + " is not valid JSON: "
                + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        check(where, root);
        return root;
    }

    /** Checks the file's structure and every parameter's kind; the values' ranges are checked when built. */
    private static void check(final String where, final JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(where + ": the file must hold one JSON object");
        }
        if (root.path("schema").asInt(-1) != 1) {
            throw new IllegalArgumentException(where + ": key 'schema' must be 1 (this jhpvm reads schema 1)");
        }
        for (final String key : List.of("name", "description")) {
            if (!root.path(key).isTextual()) {
                throw new IllegalArgumentException(where + ": key '" + key + "' must be a string");
            }
        }
        final List<String> top = List.of("schema", "name", "description", "cpu_scale", "header_bytes",
            "packet_bytes", "stages", "layers", "switches", "sources", "notes");
        for (final String key : names(root)) {
            if (!top.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown key '" + key + "' (known: " + top + ")");
            }
        }
        final Map<String, JsonNode> flat = new LinkedHashMap<>();
        flatten("", root, flat);
        for (final Map.Entry<String, JsonNode> e : flat.entrySet()) {
            checkParam(where, e.getKey(), e.getValue());
        }
        for (final String key : REQUIRED) {
            if (!flat.containsKey(key)) {
                throw new IllegalArgumentException(where + ": key '" + key + "' is required");
            }
        }
        final JsonNode sw = root.path("switches");
        for (final String name : names(sw)) {
            final JsonNode s = sw.get(name);
            final String at = where + ": switch '" + name + "'";
            if (!s.path("choices").isObject() || s.path("choices").isEmpty()) {
                throw new IllegalArgumentException(at + " needs an object 'choices' with at least one choice");
            }
            if (!s.path("choices").has(s.path("default").asText(""))) {
                throw new IllegalArgumentException(at + ": 'default' must name one of its choices "
                    + names(s.path("choices")));
            }
            for (final String choice : names(s.path("choices"))) {
                final JsonNode overrides = s.path("choices").get(choice);
                if (!overrides.isObject()) {
                    throw new IllegalArgumentException(at + ", choice '" + choice + "' must be an object");
                }
                for (final String key : names(overrides)) {
                    final JsonNode v = overrides.get(key);
                    if (v.isObject() && PARAMS.get(key) == Kind.NUMBER) {
                        if (names(v).size() != 1 || !v.path("add").isNumber()) {
                            throw new IllegalArgumentException(at + ", choice '" + choice + "': key '" + key
                                + "' = " + v + " must be a number or {\"add\": number}");
                        }
                        continue;
                    }
                    checkParam(at + ", choice '" + choice + "'", key, v);
                }
            }
        }
    }

    private static void flatten(final String prefix, final JsonNode node, final Map<String, JsonNode> out) {
        for (final String key : names(node)) {
            final String full = prefix + key;
            if (prefix.isEmpty() && List.of("schema", "name", "description", "switches", "sources", "notes")
                .contains(key)) {
                continue;
            }
            final JsonNode v = node.get(key);
            if (v.isObject()) {
                flatten(full + ".", v, out);
            } else {
                out.put(full, v);
            }
        }
    }

    private static void checkParam(final String where, final String key, final JsonNode v) {
        final Kind kind = PARAMS.get(key);
        if (kind == null) {
            throw new IllegalArgumentException(where + ": unknown key '" + key + "' (known: " + PARAMS.keySet()
                + ")");
        }
        if (kind == Kind.SEGMENTS) {
            checkSegments(where, key, v);
            return;
        }
        final boolean ok = switch (kind) {
            case NUMBER -> v.isNumber() && v.asDouble() >= 0 && Double.isFinite(v.asDouble());
            case INTEGER -> v.isIntegralNumber() && v.asLong() >= 0 && v.asLong() <= 1 << 20;
            case FLAG -> v.isBoolean();
            case SEGMENTS -> true;
        };
        if (!ok) {
            throw new IllegalArgumentException(where + ": key '" + key + "' = " + v + " must be "
                + switch (kind) {
                    case NUMBER -> "a number >= 0";
                    case INTEGER -> "an integer 0 .. 1048576";
                    case FLAG -> "true or false";
                    case SEGMENTS -> "a list of segments";
                });
        }
    }

    /** A stage's segments: objects of {@code from_bytes}, {@code fixed_ns} and {@code MBps}, by ascending size. */
    private static void checkSegments(final String where, final String key, final JsonNode v) {
        if (!v.isArray()) {
            throw new IllegalArgumentException(where + ": key '" + key + "' must be a list of {\"from_bytes\", "
                + "\"fixed_ns\", \"MBps\"} objects");
        }
        long previous = -1;
        for (int i = 0; i < v.size(); i++) {
            final JsonNode seg = v.get(i);
            final String at = key + "[" + i + "]";
            if (!seg.isObject() || !List.of("from_bytes", "fixed_ns", "MBps").containsAll(names(seg))
                || !seg.has("from_bytes")) {
                throw new IllegalArgumentException(where + ": key '" + at + "' must be an object with 'from_bytes' "
                    + "and optionally 'fixed_ns' and 'MBps', nothing else");
            }
            final JsonNode from = seg.get("from_bytes");
            if (!from.isIntegralNumber() || from.asLong() <= previous || from.asLong() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(where + ": key '" + at + ".from_bytes' = " + from + " must be an "
                    + "integer above the segment before's (" + previous + ")");
            }
            previous = from.asLong();
            for (final String k : List.of("fixed_ns", "MBps")) {
                final JsonNode n = seg.get(k);
                if (n != null && !(n.isNumber() && n.asDouble() >= 0 && Double.isFinite(n.asDouble()))) {
                    throw new IllegalArgumentException(where + ": key '" + at + "." + k + "' = " + n + " must be a "
                        + "number >= 0");
                }
            }
        }
    }

    private static MachineModel build(final JsonNode root, final Map<String, String> choices) {
        final String name = root.get("name").asText();
        final Map<String, JsonNode> p = new LinkedHashMap<>();
        flatten("", root, p);
        final Map<String, String> chosen = new LinkedHashMap<>();
        final JsonNode sw = root.path("switches");
        for (final String key : choices.keySet()) {
            if (!sw.has(key)) {
                throw new IllegalArgumentException("machine " + name + " has no switch '" + key + "' (its switches: "
                    + names(sw) + ")");
            }
        }
        for (final String s : names(sw)) {
            final String choice = choices.getOrDefault(s, sw.get(s).get("default").asText());
            final JsonNode overrides = sw.get(s).path("choices").get(choice);
            if (overrides == null) {
                throw new IllegalArgumentException("machine " + name + ": switch '" + s + "' has no choice '" + choice
                    + "' (its choices: " + names(sw.get(s).path("choices")) + ")");
            }
            chosen.put(s, choice);
            overrides.fields().forEachRemaining(e -> p.put(e.getKey(), e.getValue().isObject()
                ? com.fasterxml.jackson.databind.node.DoubleNode.valueOf(num(p, e.getKey())
                    + e.getValue().get("add").asDouble()) : e.getValue()));
        }
        for (final Map.Entry<String, JsonNode> e : p.entrySet()) {
            if (e.getValue().isNumber() && e.getValue().asDouble() < 0) {
                throw new IllegalArgumentException("machine " + name + " with switches " + chosen + ": key '"
                    + e.getKey() + "' comes to " + e.getValue().asDouble() + ", below 0");
            }
        }
        final double linkRate = num(p, "stages.link.MBps");
        if (linkRate <= 0) {
            throw new IllegalArgumentException("machine " + name + ": key 'stages.link.MBps' must be > 0");
        }
        return new MachineModel(name, root.get("description").asText(), p.containsKey("cpu_scale")
            ? num(p, "cpu_scale") : 1.0, (int) num(p, "header_bytes"), (int) num(p, "packet_bytes"),
            stage(p, "host_send", true), stage(p, "tx_dma", false), stage(p, "nic_tx", true),
            Math.round(num(p, "stages.link.latency_ns") * 1000), Stage.of(true, 0, linkRate, true),
            stage(p, "nic_rx", true), stage(p, "rx_dma", false), stage(p, "host_recv", true),
            Math.round(num(p, "stages.host_poll.fixed_ns") * 1000), chosen, layers(p));
    }

    private static Map<String, Double> layers(final Map<String, JsonNode> p) {
        final Map<String, Double> out = new LinkedHashMap<>();
        for (final String key : LAYER_KEYS) {
            if (p.containsKey("layers." + key)) {
                out.put(key, p.get("layers." + key).asDouble());
            }
        }
        return out;
    }

    private static Stage stage(final Map<String, JsonNode> p, final String stage, final boolean enabledByDefault) {
        final String k = "stages." + stage + ".";
        final boolean enabled = p.containsKey(k + "enabled") ? p.get(k + "enabled").asBoolean() : enabledByDefault;
        final boolean cut = p.containsKey(k + "cut_through") && p.get(k + "cut_through").asBoolean();
        final Stage base = Stage.of(enabled, num(p, k + "fixed_ns"), num(p, k + "MBps"), cut, num(p, k + "delay_ns"),
            num(p, k + "after_ns"));
        final JsonNode segs = p.get(k + "segments");
        if (segs == null || segs.isEmpty()) {
            return base;
        }
        final List<Stage.Segment> out = new ArrayList<>();
        for (final JsonNode seg : segs) {
            out.add(Stage.Segment.of(seg.get("from_bytes").asInt(), seg.path("fixed_ns").asDouble(0),
                seg.path("MBps").asDouble(0)));
        }
        return base.withSegments(out);
    }

    private static double num(final Map<String, JsonNode> p, final String key) {
        final JsonNode v = p.get(key);
        return v == null ? 0 : v.asDouble();
    }

    private static List<String> names(final JsonNode node) {
        final List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
