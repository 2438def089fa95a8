package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The table of options {@link FabricConfig.Builder#option(String, String)} accepts: each row's key, type, default,
 * meaning and the setter that parses and applies it. One table serves both the parser and the listing, so what is
 * documented is what is accepted. Errors name a key as users pass it through the layers above: {@code fabric.KEY}.
 */
final class FabricOptions {
    /** An accepted key and how to apply it. */
    private record Row(FabricOption option, BiConsumer<FabricConfig.Builder, String> apply) {
    }

    private static final Map<String, Row> ROWS;
    private static final List<FabricOption> LISTED;

    static {
        final List<Row> rows = List.of(
            row("frameBytes", "int", FabricConfig.DEFAULT_FRAME_BYTES,
                "payload bytes per frame (the MTU)", (b, v) -> b.frameBytes(intValue(v))),
            row("headerBytes", "int", FabricConfig.DEFAULT_HEADER_BYTES,
                "opaque header bytes per frame for the layer above", (b, v) -> b.headerBytes(intValue(v))),
            row("sendRingCapacity", "int", FabricConfig.DEFAULT_RING_CAPACITY,
                "frames the host can queue for its NIC", (b, v) -> b.sendRingCapacity(intValue(v))),
            row("receiveRingCapacity", "int", FabricConfig.DEFAULT_RING_CAPACITY,
                "frames a NIC holds for its host; a full ring back-pressures senders",
                (b, v) -> b.receiveRingCapacity(intValue(v))),
            row("inlineBytes", "int", "auto",
                "largest payload copied at the switch (auto: min(1024, frameBytes)); 0 sends all by reference",
                (b, v) -> b.inlineBytes(autoInt(v))),
            row("poolFrames", "int", "auto",
                "frames in each NIC's pool (auto: send + receive ring capacity)", (b, v) -> b.poolFrames(autoInt(v))),
            row("spareFrames", "int", FabricConfig.DEFAULT_SPARE_FRAMES,
                "frames each NIC keeps for the copies fault injection duplicates",
                (b, v) -> b.spareFrames(intValue(v))),
            row("pumpBudget", "int", "auto",
                "most frames one NIC turn moves (auto: the send ring capacity)", (b, v) -> b.pumpBudget(autoInt(v))),
            row("maxHoldNs", "nanoseconds", FabricConfig.DEFAULT_MAX_HOLD_NS,
                "longest a reordered frame waits to be overtaken", (b, v) -> b.maxHoldNs(longValue(v))),
            row("idleSpins", "long", FabricConfig.DEFAULT_IDLE_SPINS,
                "spins before yielding, in the fabric's waiting calls", (b, v) -> b.idleSpins = longValue(v)),
            row("idleYields", "long", FabricConfig.DEFAULT_IDLE_YIELDS,
                "yields before parking, in the fabric's waiting calls", (b, v) -> b.idleYields = longValue(v)),
            row("minParkNs", "nanoseconds", FabricConfig.DEFAULT_MIN_PARK_NS,
                "first park, in the fabric's waiting calls", (b, v) -> b.minParkNs = longValue(v)),
            row("maxParkNs", "nanoseconds", FabricConfig.DEFAULT_MAX_PARK_NS,
                "longest park, in the fabric's waiting calls (bounds how late a waiter notices a close)",
                (b, v) -> b.maxParkNs = longValue(v)),
            row("completionQueueCapacity", "int", FabricConfig.DEFAULT_COMPLETION_QUEUE_CAPACITY,
                "completions a NIC's completion queue holds (posted requests not yet polled)",
                (b, v) -> b.completionQueueCapacity = intValue(v)),
            row("rdmaSegmentBytes", "int", FabricConfig.DEFAULT_RDMA_SEGMENT_BYTES,
                "bytes per RDMA segment on the NIC's reliable connection (the unit faults hit and resends move)",
                (b, v) -> b.rdmaSegmentBytes = intValue(v)),
            row("faults.seed", "long", FabricConfig.DEFAULT_FAULT_SEED,
                "seed of the fault plan: the same seed replays the same faults", (b, v) -> b.faultSeed(longValue(v))),
            row("faults.drop", "probability", "0", "probability that a frame is dropped",
                (b, v) -> b.faultProbability(0, v)),
            row("faults.corrupt", "probability", "0", "probability that a frame's bits are flipped",
                (b, v) -> b.faultProbability(1, v)),
            row("faults.duplicate", "probability", "0", "probability that a frame is delivered twice",
                (b, v) -> b.faultProbability(2, v)),
            row("faults.reorder", "probability", "0", "probability that a frame is held back and overtaken",
                (b, v) -> b.faultProbability(3, v)),
            row("clock", "wall|virtual", "wall", "the clock the fabric keeps: this machine's (wall), or a modelled "
                + "machine's per NIC (virtual; see fabric.machine)", (b, v) -> b.clockMode(v)),
            row("machine", "name|path", ClockSettings.DEFAULT_MACHINE, "the machine a virtual clock models: "
                + String.join(", ", org.jhpvm.fabric.timing.MachineFiles.BUNDLED) + ", or a machine file",
                (b, v) -> b.machine(v)),
            row("model.SWITCH", "choice", "default", "a switch of the machine's model, e.g. "
                + "fabric.model.lcp=baseline (info --all lists each machine's switches; default: the machine's)",
                null),
            row("cpu", "measured|declared", "measured", "in virtual time, whether a PE's computation counts its "
                + "thread's CPU time (measured) or only what it declares (VirtualTime.charge)", (b, v) -> b.cpu(v)),
            row("looks", "auto|park|spin", ClockSettings.AUTO_LOOKS, "in virtual time, how a NIC waits (wall time) for "
                + "the others' clocks: parked until the NIC holding it back reaches its time (park), or spinning, "
                + "yielding and parking a while (spin); auto parks when the NICs outnumber the cores. The virtual "
                + "times are the same either way", (b, v) -> b.looks(v)));
        final Map<String, Row> byKey = new LinkedHashMap<>();
        final List<FabricOption> listed = new ArrayList<>();
        for (final Row r : rows) {
            byKey.put(r.option().key(), r);
            listed.add(r.option());
        }
        ROWS = Map.copyOf(byKey);
        LISTED = List.copyOf(listed);
    }

    private FabricOptions() {
    }

    static List<FabricOption> listed() {
        return LISTED;
    }

    /**
     * Applies one option to a builder.
     *
     * @throws IllegalArgumentException naming the key if it is unknown or its value is not valid
     */
    static void apply(final FabricConfig.Builder builder, final String key, final String value) {
        if (key.startsWith("model.") && value != null) {
            // One row stands for every switch (model.SWITCH): the machine file says which switches there are.
            try {
                builder.modelSwitch(key.substring("model.".length()), value.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("option fabric." + key + "=" + value + ": " + e.getMessage(), e);
            }
            return;
        }
        final Row row = ROWS.get(key);
        if (row == null || row.apply() == null) {
            final StringBuilder known = new StringBuilder();
            for (final FabricOption o : LISTED) {
                known.append(known.isEmpty() ? "" : ", ").append(o.key());
            }
            throw new IllegalArgumentException("unknown option 'fabric." + key + "' (known fabric options: " + known
                + ")");
        }
        if (value == null) {
            throw new IllegalArgumentException("option fabric." + key + " has no value");
        }
        try {
            row.apply().accept(builder, value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option fabric." + key + "=" + value + " is not a number", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option fabric." + key + "=" + value + ": " + e.getMessage(), e);
        }
    }

    private static Row row(final String key, final String type, final Object dflt, final String meaning,
                           final BiConsumer<FabricConfig.Builder, String> apply) {
        return new Row(new FabricOption(key, type, String.valueOf(dflt), meaning), apply);
    }

    private static int intValue(final String v) {
        return Integer.parseInt(v);
    }

    private static long longValue(final String v) {
        return Long.parseLong(v);
    }

    /** {@code auto} means "derive it" (the builder's -1); a negative number is refused, not taken for auto. */
    private static int autoInt(final String v) {
        if (v.equals("auto")) {
            return -1;
        }
        final int n = Integer.parseInt(v);
        if (n < 0) {
            throw new IllegalArgumentException("negative");
        }
        return n;
    }

    static double probability(final String value) {
        final double p = Double.parseDouble(value);
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("outside 0..1");
        }
        return p;
    }
}
