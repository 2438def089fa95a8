package org.jhpvm.apps.commands;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.VirtualFmBenchmark;
import org.jhpvm.fabric.ClockSettings;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What {@code bench fm --clock virtual} prints and writes: the modelled t0, r_inf, n1/2 and latency with their curves,
 * next to the paper's figures where the machine and its switches are one of FM 1.0's Table 4 rows.
 */
final class VirtualBenchReport {
    private static final double MIB = 1024.0 * 1024.0;

    private VirtualBenchReport() {
    }

    static void print(final VirtualFmBenchmark.Result r, final ClockSettings clock) {
        System.out.printf(Locale.ROOT, "bench fm in virtual time: 2 PEs on machine %s, switches %s, frames of %d "
            + "bytes (%s); every figure is the modelled machine's time (%.1f s of wall time)%n", r.machine().name(),
            r.machine().switches(), r.frameBytes(), r.machine().packetBytes() > 0 ? "the machine's packets"
                : "one packet per message", r.wallSeconds());
        System.out.printf(Locale.ROOT, "%10s %14s%n", "bytes", "latency_us");
        for (int i = 0; i < VirtualFmBenchmark.LATENCY_SIZES.length; i++) {
            System.out.printf(Locale.ROOT, "%10d %14.3f%n", VirtualFmBenchmark.LATENCY_SIZES[i], r.latencyUs()[i]);
        }
        System.out.printf(Locale.ROOT, "%10s %16s %12s %12s%n", "bytes", "per_message_us", "MBps", "MiBps");
        for (int i = 0; i < VirtualFmBenchmark.STREAM_SIZES.length; i++) {
            System.out.printf(Locale.ROOT, "%10d %16.3f %12.2f %12.2f%n", VirtualFmBenchmark.STREAM_SIZES[i],
                r.perMessageUs()[i], r.bandwidthMBps()[i], r.bandwidthMBps()[i] * 1e6 / MIB);
        }
        System.out.printf(Locale.ROOT, "model: t0 = %.3f us, r_inf = %.2f MB/s (%.2f MiB/s, the papers' MB), n1/2 = "
            + "%.1f bytes, one-way latency 8 B = %.3f us%n", r.t0Us(), r.rInfMBps(), r.rInfMBps() * 1e6 / MIB,
            r.nHalfBytes(), r.latency8Us());
        final PaperRow row = PaperRow.of(r.machine().name(), r.machine().switches());
        if (row != null) {
            System.out.printf(Locale.ROOT, "paper (%s): t0 = %.1f us, r_inf = %.1f MiB/s, n1/2 = %.0f bytes; model "
                + "error: t0 %+.1f%%, r_inf %+.1f%%, n1/2 %+.1f%%%n", row.name(), row.t0Us(), row.rInfMiBps(),
                row.nHalfBytes(), 100 * (r.t0Us() / row.t0Us() - 1),
                100 * (r.rInfMBps() * 1e6 / MIB / row.rInfMiBps() - 1), 100 * (r.nHalfBytes() / row.nHalfBytes() - 1));
        }
    }

    static void printLossy(final VirtualFmBenchmark.Result lossy, final VirtualFmBenchmark.Result clean,
                           final double drop) {
        System.out.printf(Locale.ROOT, "with %.1f%% of frames dropped (seed 1998): one-way latency 8 B = %.3f us, "
            + "r_inf = %.2f MB/s (%.0f%% of fault-free), t0 = %.3f us; %d frames dropped, %d retransmitted by FM, every "
            + "timeout and resend in the modelled time%n", 100 * drop, lossy.latency8Us(), lossy.rInfMBps(),
            100 * lossy.rInfMBps() / clean.rInfMBps(), lossy.t0Us(), lossy.dropped(), lossy.retransmitted());
    }

    static ObjectNode json(final VirtualFmBenchmark.Result r, final ClockSettings clock,
                           final VirtualFmBenchmark.Result lossy, final double drop) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "fm");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("pes", 2).put("clock", "virtual").put("machine", r.machine().name())
            .put("cpu", clock.measured() ? "measured" : "declared").put("frame_bytes", r.frameBytes())
            .put("wall_seconds", r.wallSeconds());
        final ObjectNode sw = cfg.putObject("model");
        r.machine().switches().forEach(sw::put);
        final ObjectNode m = root.putObject("metrics");
        m.put("model_t0_us", r.t0Us());
        m.put("model_r_inf_MBps", r.rInfMBps());
        m.put("model_r_inf_MiBps", r.rInfMBps() * 1e6 / MIB);
        m.put("model_n_half_bytes", r.nHalfBytes());
        m.put("model_latency_us_8B", r.latency8Us());
        m.put("model_bw_MBps_peak", r.rInfMBps());
        m.put("model_latency_us_8B_drop1pct", lossy.latency8Us());
        m.put("model_r_inf_MBps_drop1pct", lossy.rInfMBps());
        m.put("model_t0_us_drop1pct", lossy.t0Us());
        m.put("frames_dropped_drop1pct", lossy.dropped());
        m.put("frames_retransmitted_drop1pct", lossy.retransmitted());
        cfg.put("drop", drop);
        final PaperRow row = PaperRow.of(r.machine().name(), r.machine().switches());
        if (row != null) {
            final ObjectNode p = root.putObject("paper");
            p.put("row", row.name()).put("t0_us", row.t0Us()).put("r_inf_MiBps", row.rInfMiBps())
                .put("n_half_bytes", row.nHalfBytes());
            p.put("t0_error", r.t0Us() / row.t0Us() - 1);
            p.put("r_inf_error", r.rInfMBps() * 1e6 / MIB / row.rInfMiBps() - 1);
            p.put("n_half_error", r.nHalfBytes() / row.nHalfBytes() - 1);
        }
        final ArrayNode lat = root.putArray("model_latency_curve");
        for (int i = 0; i < VirtualFmBenchmark.LATENCY_SIZES.length; i++) {
            lat.addObject().put("bytes", VirtualFmBenchmark.LATENCY_SIZES[i]).put("latency_us", r.latencyUs()[i]);
        }
        final ArrayNode bw = root.putArray("model_bandwidth_curve");
        for (int i = 0; i < VirtualFmBenchmark.STREAM_SIZES.length; i++) {
            bw.addObject().put("bytes", VirtualFmBenchmark.STREAM_SIZES[i])
                .put("per_message_us", r.perMessageUs()[i]).put("bw_MBps", r.bandwidthMBps()[i]);
        }
        return root;
    }

    static List<XYChart> charts(final VirtualFmBenchmark.Result r) {
        final XYChart latency = Reports.logLogChart("modelled one-way latency, " + r.machine().name(), "us");
        final int from = 1; // a log axis has no 0
        latency.addSeries("model", sizes(VirtualFmBenchmark.LATENCY_SIZES, from),
            java.util.Arrays.copyOfRange(r.latencyUs(), from, r.latencyUs().length));
        final XYChart bandwidth = Reports.logLogChart("modelled streaming bandwidth, " + r.machine().name(),
            "MiB/s (2^20)");
        final double[] mib = new double[r.bandwidthMBps().length - from];
        for (int i = 0; i < mib.length; i++) {
            mib[i] = r.bandwidthMBps()[i + from] * 1e6 / MIB;
        }
        bandwidth.addSeries("model", sizes(VirtualFmBenchmark.STREAM_SIZES, from), mib);
        final PaperRow row = PaperRow.of(r.machine().name(), r.machine().switches());
        if (row != null) {
            final XYSeries paper = bandwidth.addSeries("paper: n1/2 and r_inf (" + row.name() + ")",
                new double[] {row.nHalfBytes(), VirtualFmBenchmark.STREAM_SIZES[VirtualFmBenchmark.STREAM_SIZES.length
                    - 1]}, new double[] {row.rInfMiBps() / 2, row.rInfMiBps()});
            paper.setMarker(SeriesMarkers.DIAMOND);
            paper.setLineStyle(SeriesLines.NONE); // two points of the paper's, not a curve
        }
        return List.of(latency, bandwidth);
    }

    private static double[] sizes(final int[] sizes, final int from) {
        final double[] x = new double[sizes.length - from];
        for (int i = 0; i < x.length; i++) {
            x[i] = sizes[i + from];
        }
        return x;
    }

    /**
     * A row of FM 1.0's Table 4 (Pakin, Lauria and Chien, SC'95): the switch settings of {@code sparc-sbus-1995} that
     * stand for it, and the paper's figures (MB = 2^20 bytes).
     */
    record PaperRow(String name, Map<String, String> switches, double t0Us, double rInfMiBps, double nHalfBytes) {
        static final List<PaperRow> TABLE_4 = List.of(
            new PaperRow("baseline LCP", Map.of("sbus", "none", "lcp", "baseline", "buffers", "off", "flow", "off"),
                4.2, 76.3, 315),
            new PaperRow("streamed LCP", Map.of("sbus", "none", "buffers", "off", "flow", "off"), 3.5, 76.3, 249),
            new PaperRow("hybrid SBus", Map.of("buffers", "off", "flow", "off"), 3.5, 21.2, 44),
            new PaperRow("hybrid + buffer management", Map.of("flow", "off"), 3.8, 21.9, 53),
            new PaperRow("hybrid + buffers + flow control (FM 1.0)", Map.of(), 4.1, 21.4, 54),
            new PaperRow("hybrid + buffers + switch()", Map.of("flow", "off", "switch", "on"), 6.8, 21.8, 127),
            new PaperRow("hybrid + buffers + flow control + switch()", Map.of("switch", "on"), 6.9, 21.7, 127),
            new PaperRow("all-DMA SBus", Map.of("sbus", "dma", "buffers", "off", "flow", "off"), 7.5, 33.0, 162));

        /** @return the row whose switches (the others at their defaults) are {@code switches}, or null */
        static PaperRow of(final String machine, final Map<String, String> switches) {
            if (!machine.equals("sparc-sbus-1995")) {
                return null;
            }
            final Map<String, String> defaults = Map.of("sbus", "hybrid", "lcp", "streamed", "buffers", "on", "flow",
                "on", "switch", "off", "packet", "message");
            for (final PaperRow row : TABLE_4) {
                final java.util.HashMap<String, String> full = new java.util.HashMap<>(defaults);
                full.putAll(row.switches());
                if (full.equals(switches)) {
                    return row;
                }
            }
            return null;
        }
    }
}
