package org.jhpvm.apps.commands;

import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.VirtualFabricBenchmark;
import org.jhpvm.fabric.ClockSettings;

/** {@code bench fabric --clock virtual}: raw frames of the emulated Myrinet on a modelled machine's clock. */
final class VirtualFabricReport {
    private VirtualFabricReport() {
    }

    static int run(final ClockSettings settings, final Path json) throws Exception {
        ClockOptions.checkInProcess(settings);
        final VirtualFabricBenchmark.Result r;
        try (Progress progress = new Progress("bench fabric, virtual time", VirtualFabricBenchmark.SIZES.length)) {
            r = VirtualFabricBenchmark.run(settings, 200, 400, progress);
        }
        System.out.printf(Locale.ROOT, "bench fabric in virtual time: 2 NICs on machine %s, switches %s, frames of %d "
            + "bytes; raw frames, no messaging layer (%.1f s of wall time)%n", r.machine().name(),
            r.machine().switches(), r.frameBytes(), r.wallSeconds());
        System.out.printf(Locale.ROOT, "%10s %12s %14s %12s%n", "bytes", "latency_us", "per_frame_us", "MBps");
        for (int i = 0; i < r.sizes().length; i++) {
            System.out.printf(Locale.ROOT, "%10d %12.3f %14.3f %12.2f%n", r.sizes()[i], r.latencyUs()[i],
                r.perFrameUs()[i], r.bandwidthMBps(i));
        }
        System.out.printf(Locale.ROOT, "model: one-way latency 8 B = %.3f us, per-frame time of empty frames = %.3f "
            + "us, r_inf = %.2f MB/s, n1/2 = %.1f bytes%n", r.latency8Us(), r.perFrameUs()[0], r.rInfMBps(),
            r.nHalfBytes());
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "fabric");
            ClockOptions.virtualConfig(root, "nics", 2, r.machine(), r.frameBytes(), r.wallSeconds());
            final ObjectNode m = root.putObject("metrics");
            m.put("model_fabric_latency_us_8B", r.latency8Us());
            m.put("model_fabric_t0_us", r.perFrameUs()[0]);
            m.put("model_fabric_r_inf_MBps", r.rInfMBps());
            m.put("model_fabric_n_half_bytes", r.nHalfBytes());
            final ArrayNode rows = root.putArray("model_fabric_curve");
            for (int i = 0; i < r.sizes().length; i++) {
                rows.addObject().put("bytes", r.sizes()[i]).put("latency_us", r.latencyUs()[i])
                    .put("per_frame_us", r.perFrameUs()[i]).put("bw_MBps", r.bandwidthMBps(i));
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }
}
