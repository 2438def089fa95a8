package org.jhpvm.fm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The table of {@code fm.*} options {@link FmConfig.Builder#option(String, String)} accepts: each row's key, type,
 * default, meaning and the setter that parses and applies it. One table serves both the parser and the listing.
 */
final class FmOptions {
    /** The prefix of FM's own keys. */
    static final String PREFIX = "fm.";

    /** An accepted key and how to apply it. */
    private record Row(FmOption option, BiConsumer<FmConfig.Builder, String> apply) {
    }

    private static final Map<String, Row> ROWS;
    private static final List<FmOption> LISTED;

    static {
        final FmConfig.Builder d = FmConfig.builder();
        final List<Row> rows = List.of(
            row("windowFrames", "int", "auto", "data frames a PE may have sent and not yet seen acknowledged as "
                + "accepted by their receiver (auto: min(32, max(2, poolFrames / 4)))",
                (b, v) -> b.windowFrames(autoInt(v))),
            row("receiveQueueFrames", "int", "auto", "arrived frames held for the next extract (auto: "
                + "max(1, receiveRingCapacity / 2))", (b, v) -> b.receiveQueueFrames(autoInt(v))),
            row("ackEveryFrames", "int", "auto", "frames accepted from a sender and not yet acknowledged after which "
                + "an explicit acknowledgement goes out (auto: max(1, windowFrames / 2))",
                (b, v) -> b.ackEveryFrames(autoInt(v))),
            row("ackDelayNs", "nanoseconds", d.ackDelayNs, "longest an acknowledgement waits for a data frame to ride "
                + "on", (b, v) -> b.ackDelayNs(longValue(v))),
            row("rtoMinNs", "nanoseconds", d.rtoMinNs, "first retransmission timeout",
                (b, v) -> b.rtoMinNs = longValue(v)),
            row("rtoMaxNs", "nanoseconds", d.rtoMaxNs, "longest retransmission timeout (it doubles on every expiry)",
                (b, v) -> b.rtoMaxNs = longValue(v)),
            row("rejectBackoffNs", "nanoseconds", d.rejectBackoffNs, "wait before resending frames the receiver "
                + "rejected for lack of room", (b, v) -> b.rejectBackoffNs(longValue(v))),
            row("alwaysChecksum", "boolean", d.alwaysChecksum, "compute CRC32C even when the fabric does not corrupt "
                + "frames", (b, v) -> b.alwaysChecksum(booleanValue(v))),
            row("inlineWholeMessages", "boolean", d.inlineWholeMessages, "run a handler on the extracting thread "
                + "when its whole message has arrived", (b, v) -> b.inlineWholeMessages(booleanValue(v))),
            row("maxFm1MessageBytes", "int", d.maxFm1MessageBytes, "longest FM 1.x send (its receiver stages the "
                + "whole message)", (b, v) -> b.maxFm1MessageBytes(intValue(v))),
            row("extractWhileWaiting", "boolean", d.extractWhileWaiting, "a send waiting for flow control extracts "
                + "meanwhile (runs handlers)", (b, v) -> b.extractWhileWaiting(booleanValue(v))),
            row("idleSpins", "long", d.idleSpins, "spins before yielding, in FM's waiting calls",
                (b, v) -> b.idleSpins = longValue(v)),
            row("idleYields", "long", d.idleYields, "yields before parking, in FM's waiting calls",
                (b, v) -> b.idleYields = longValue(v)),
            row("minParkNs", "nanoseconds", d.minParkNs, "first park, in FM's waiting calls",
                (b, v) -> b.minParkNs = longValue(v)),
            row("maxParkNs", "nanoseconds", d.maxParkNs, "longest park, in FM's waiting calls (bounds how late an "
                + "abort is noticed)", (b, v) -> b.maxParkNs = longValue(v)),
            row("nicOffload", "boolean", d.nicOffload, "NIC messages and RDMA by the NIC where the fabric offers it; "
                + "false carries them in FM messages", (b, v) -> b.nicOffload = booleanValue(v)),
            row("rendezvousBytes", "int", d.rendezvousBytes, "messages declared at least this long move by RDMA "
                + "from the sender's arrays into the receiver's where the NIC does RDMA (0: never)",
                (b, v) -> b.rendezvousBytes(intValue(v))),
            row("hostStagingBytes", "int", d.hostStagingBytes, "RDMA carried in FM's messages of at least this "
                + "many bytes between PEs of one host moves through a ring in host memory (0: never)",
                (b, v) -> b.hostStagingBytes(intValue(v))),
            row("scheduling", "none|dcs|gang", d.scheduling, "how a job's PE threads in one process share its "
                + "cores: the operating system (none) or run slots (dcs: a PE woken by a message first; gang)",
                (b, v) -> b.scheduling = Scheduling.parse(v)),
            row("cores", "int", "auto", "cores a job's PE threads in one process may use (auto: the machine's)",
                (b, v) -> b.cores = autoInt(v)),
            row("quantumNs", "nanoseconds", d.quantumNs, "longest a PE waits for a run slot before it runs anyway "
                + "(dcs), or a gang's turn (gang)", (b, v) -> b.quantumNs = longValue(v)),
            row("idleSleepNs", "nanoseconds", d.idleSleepNs, "first sleep of a wait while FM has no timer running "
                + "(bounds how late a condition another thread sets without a message is noticed)",
                (b, v) -> b.idleSleepNs = longValue(v)),
            row("idleSleepMaxNs", "nanoseconds", d.idleSleepMaxNs, "longest such sleep: each that ends with "
                + "nothing arriving doubles the next, from idleSleepNs up to this", (b, v) -> b.idleSleepMaxNs =
                longValue(v)),
            row("spinWaitNs", "nanoseconds", d.spinWaitNs, "how long a wait spins while the PE threads running in "
                + "this process fit its cores (scheduling none); then, or once they do not fit, it sleeps (0: "
                + "spin idleSpins times only)", (b, v) -> b.spinWaitNs = longValue(v)),
            row("deadlockAfterNs", "nanoseconds", d.deadlockAfterNs, "how long every PE must have waited with "
                + "nothing in flight before the job ends as deadlocked, naming each PE's call (0: never)",
                (b, v) -> b.deadlockAfterNs = longValue(v)));
        final Map<String, Row> byKey = new LinkedHashMap<>();
        final List<FmOption> listed = new ArrayList<>();
        for (final Row r : rows) {
            byKey.put(r.option().key(), r);
            listed.add(r.option());
        }
        ROWS = Map.copyOf(byKey);
        LISTED = List.copyOf(listed);
    }

    private FmOptions() {
    }

    static List<FmOption> listed() {
        return LISTED;
    }

    /**
     * Applies one {@code fm.*} option to a builder.
     *
     * @throws IllegalArgumentException naming the key if it is unknown or its value is not valid
     */
    static void apply(final FmConfig.Builder builder, final String key, final String value) {
        final Row row = ROWS.get(key);
        if (row == null) {
            final StringBuilder known = new StringBuilder();
            for (final FmOption o : LISTED) {
                known.append(known.isEmpty() ? "" : ", ").append(o.key());
            }
            throw new IllegalArgumentException("unknown option '" + key + "' (known FM options: " + known + ")");
        }
        if (value == null) {
            throw new IllegalArgumentException("option " + key + " has no value");
        }
        try {
            row.apply().accept(builder, value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + "=" + value + " is not a number", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option " + key + "=" + value + ": " + e.getMessage(), e);
        }
    }

    private static Row row(final String key, final String type, final Object dflt, final String meaning,
                           final BiConsumer<FmConfig.Builder, String> apply) {
        return new Row(new FmOption(PREFIX + key, type, String.valueOf(dflt), meaning), apply);
    }

    private static int intValue(final String v) {
        return Integer.parseInt(v);
    }

    private static long longValue(final String v) {
        return Long.parseLong(v);
    }

    /** {@code auto} means "derive it" (FmConfig's 0). */
    private static int autoInt(final String v) {
        return v.equals("auto") ? 0 : Integer.parseInt(v);
    }

    private static boolean booleanValue(final String v) {
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + v + "' is not true or false");
        };
    }
}
