package org.jhpvm.apps.commands;

import org.jhpvm.apps.AllToAllTraffic;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.LinkDownWindow;
import org.jhpvm.fabric.NicCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jhpvm fabric}: all-to-all traffic through the emulated Myrinet, with counters and throughput. */
@Command(name = "fabric", mixinStandardHelpOptions = true,
    description = {"All-to-all traffic through the emulated Myrinet: counters and throughput.",
        "Every NIC sends --frames frames, round robin to every other NIC, each carrying a per-path sequence number "
        + "and a CRC32C. Receivers check them, so the faults the fabric injects are seen from above too. Prints "
        + "per-NIC and total counters and the throughput. Exits 1 if a fault-free run loses, duplicates, reorders or "
        + "corrupts anything."})
public final class FabricCommand implements Callable<Integer> {
    @Option(names = "--pes", paramLabel = "N", description = "Number of NICs (PEs), one thread each (default: "
        + "${DEFAULT-VALUE}).")
    private int pes = 4;

    @Option(names = "--frames", paramLabel = "F", description = "Frames each PE sends (default: ${DEFAULT-VALUE}).")
    private int frames = 20_000;

    @Option(names = "--frame-bytes", paramLabel = "B", description = "Frame size (MTU); every frame is full "
        + "(default: ${DEFAULT-VALUE}).")
    private int frameBytes = 1024;

    @Option(names = "--ring", paramLabel = "R", description = "Send and receive ring capacity (default: "
        + "${DEFAULT-VALUE}).")
    private int ring = FabricConfig.DEFAULT_RING_CAPACITY;

    @Option(names = "--drop", paramLabel = "P", description = "Drop probability per frame (default: 0).")
    private double drop;

    @Option(names = "--corrupt", paramLabel = "P", description = "Corruption probability per frame, bit "
        + "flips (default: 0).")
    private double corrupt;

    @Option(names = "--duplicate", paramLabel = "P", description = "Duplication probability per frame (default: 0).")
    private double duplicate;

    @Option(names = "--reorder", paramLabel = "P", description = "Reorder probability per frame (default: 0).")
    private double reorder;

    @Option(names = "--delay", paramLabel = "P", description = "Delay probability per frame (default: 0).")
    private double delay;

    @Option(names = "--delay-ns", paramLabel = "NS", description = "Delay length (default: ${DEFAULT-VALUE}).")
    private long delayNs = 20_000;

    @Option(names = "--stall", paramLabel = "P", description = "Probability per frame of a receiver stall"
        + " (default: 0).")
    private double stall;

    @Option(names = "--stall-ns", paramLabel = "NS", description = "Receiver stall length (default: "
        + "${DEFAULT-VALUE}).")
    private long stallNs = 50_000;

    @Option(names = "--link-down", paramLabel = "NIC:FROM:TO", description = "Take NIC's link down for the frames "
        + "numbered FROM (inclusive) to TO (exclusive) on each of its paths. Repeatable (default: none).")
    private List<String> linkDown = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the fault plan (default: ${DEFAULT-VALUE}).")
    private long seed = 42;

    @Option(names = "--timeout-s", paramLabel = "S", description = "Give up after this long (default: "
        + "${DEFAULT-VALUE}).")
    private long timeoutS = 300;

    @Option(names = "--json", paramLabel = "FILE", description = "Write counters and throughput as JSON"
        + " (default: none).")
    private Path json;

    /** Creates the {@code jhpvm fabric} command; picocli calls this reflectively, then sets the options given. */
    public FabricCommand() {
    }

    @Override
    public Integer call() throws Exception {
        if (frames < 0) {
            throw new IllegalArgumentException("--frames=" + frames + " is negative");
        }
        final FaultPlan.Builder plan = FaultPlan.builder(seed).drop(drop).corrupt(corrupt).duplicate(duplicate)
            .reorder(reorder).delay(delay, delayNs).receiverStall(stall, stallNs);
        for (final String window : linkDown) {
            plan.linkDown(parseWindow(window));
        }
        final FabricConfig config = FabricConfig.builder(pes).frameBytes(frameBytes).headerBytes(
            AllToAllTraffic.HEADER_BYTES).sendRingCapacity(ring).receiveRingCapacity(ring).faultPlan(plan.build())
            .build();
        final AllToAllTraffic.Result r;
        try (Progress progress = new Progress("fabric", (long) pes * frames)) {
            r = new AllToAllTraffic(config, frames, timeoutS).run(progress);
        }
        print(config, r);
        if (json != null) {
            Reports.writeJson(json, toJson(config, r));
            System.out.println("wrote " + json);
        }
        final boolean faultFree = config.faultPlan().isNone();
        if (faultFree && !r.clean()) {
            System.out.println("FAILED: a fault-free fabric lost, duplicated, reordered or corrupted frames");
            return 1;
        }
        return 0;
    }

    private static LinkDownWindow parseWindow(final String text) {
        final String[] parts = text.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("--link-down=" + text + ": expected NIC:FROM:TO");
        }
        try {
            return new LinkDownWindow(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("--link-down=" + text + ": expected numbers NIC:FROM:TO", e);
        }
    }

    private static void print(final FabricConfig config, final AllToAllTraffic.Result r) {
        System.out.printf("fabric: emulated Myrinet, %d NICs, frameBytes=%d, rings %d/%d, %s, %d bytes per NIC%n",
            config.nicCount(), config.frameBytes(), config.sendRingCapacity(), config.receiveRingCapacity(),
            config.faultPlan().isNone() ? "no faults" : "faults seed=" + config.faultPlan().seed(),
            EmulatedMyrinet.bytesPerNic(config));
        final String header = "%5s %10s %10s %10s %8s %9s %9s %9s %8s %9s%n";
        System.out.printf(header, "nic", "sent", "delivered", "received", "dropped", "corrupted", "duplicate",
            "reordered", "delayed", "stalls");
        final String row = "%5s %10d %10d %10d %8d %9d %9d %9d %8d %9d%n";
        for (int i = 0; i < r.perNic().length; i++) {
            final NicCounters c = r.perNic()[i];
            System.out.printf(row, i, c.framesSent(), c.framesDelivered(), c.framesReceived(), c.framesDropped(),
                c.framesCorrupted(), c.framesDuplicated(), c.framesReordered(), c.framesDelayed(),
                c.backPressureStalls());
        }
        final NicCounters t = r.totals();
        System.out.printf(row, "total", t.framesSent(), t.framesDelivered(), t.framesReceived(), t.framesDropped(),
            t.framesCorrupted(), t.framesDuplicated(), t.framesReordered(), t.framesDelayed(), t.backPressureStalls());
        System.out.printf("receivers saw: %d frames accepted, %d CRC32C failures, %d duplicates, %d out of order, "
            + "%d missing%n", r.accepted(), r.crcFailures(), r.duplicates(), r.outOfOrder(), r.missing());
        System.out.printf("throughput: %.0f frames/s, %.1f MB/s payload (%d frames of %d B in %.3f s)%n",
            r.framesPerSecond(), r.megabytesPerSecond(), t.framesReceived(), config.frameBytes(), r.elapsedNs() / 1e9);
    }

    private static ObjectNode toJson(final FabricConfig config, final AllToAllTraffic.Result r) {
        final ObjectNode root = Reports.object();
        root.put("command", "fabric");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("nics", config.nicCount());
        cfg.put("frame_bytes", config.frameBytes());
        cfg.put("ring", config.receiveRingCapacity());
        cfg.put("seed", config.faultPlan().seed());
        cfg.put("faults", !config.faultPlan().isNone());
        cfg.put("bytes_per_nic", EmulatedMyrinet.bytesPerNic(config));
        final ObjectNode m = root.putObject("metrics");
        final NicCounters t = r.totals();
        putCounters(m, t);
        m.put("accepted", r.accepted());
        m.put("crc_failures", r.crcFailures());
        m.put("duplicates_seen", r.duplicates());
        m.put("out_of_order_seen", r.outOfOrder());
        m.put("missing", r.missing());
        m.put("elapsed_s", r.elapsedNs() / 1e9);
        m.put("frames_per_s", r.framesPerSecond());
        m.put("throughput_MBps", r.megabytesPerSecond());
        final ArrayNode nics = root.putArray("nics");
        for (final NicCounters c : r.perNic()) {
            putCounters(nics.addObject(), c);
        }
        return root;
    }

    private static void putCounters(final ObjectNode o, final NicCounters c) {
        o.put("frames_sent", c.framesSent());
        o.put("bytes_sent", c.bytesSent());
        o.put("frames_delivered", c.framesDelivered());
        o.put("bytes_delivered", c.bytesDelivered());
        o.put("frames_received", c.framesReceived());
        o.put("bytes_received", c.bytesReceived());
        o.put("frames_dropped", c.framesDropped());
        o.put("frames_corrupted", c.framesCorrupted());
        o.put("frames_duplicated", c.framesDuplicated());
        o.put("frames_reordered", c.framesReordered());
        o.put("frames_delayed", c.framesDelayed());
        o.put("link_down_drops", c.linkDownDrops());
        o.put("back_pressure_stalls", c.backPressureStalls());
        o.put("receiver_stalls", c.receiverStalls());
    }
}
