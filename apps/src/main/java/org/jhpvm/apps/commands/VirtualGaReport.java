package org.jhpvm.apps.commands;

import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.VirtualGaBenchmark;
import org.jhpvm.fabric.ClockSettings;

/** {@code bench ga --clock virtual}: GA's sections against SHMEM on a modelled machine's clock. */
final class VirtualGaReport {
    private VirtualGaReport() {
    }

    static int run(final ClockSettings settings, final Path json) throws Exception {
        ClockOptions.checkInProcess(settings);
        final VirtualGaBenchmark.Result r;
        try (Progress progress = new Progress("bench ga, virtual time", VirtualGaBenchmark.SIZES.length)) {
            r = VirtualGaBenchmark.run(settings, 50, progress);
        }
        System.out.printf(Locale.ROOT, "bench ga in virtual time: 2 PEs on machine %s, switches %s, frames of %d bytes; "
            + "1-D sections owned by the other PE against SHMEM moving the same bytes; requests travel as FM messages "
            + "(%.1f s of wall time)%n", r.machine().name(), r.machine().switches(), r.frameBytes(), r.wallSeconds());
        System.out.printf(Locale.ROOT, "%10s %12s %12s %8s %12s %12s %8s %12s %12s %8s%n", "bytes", "ga_put_us",
            "shmem_us", "eff", "ga_get_us", "shmem_us", "eff", "ga_acc_us", "shmem_us", "eff");
        for (int i = 0; i < VirtualGaBenchmark.SIZES.length; i++) {
            System.out.printf(Locale.ROOT, "%10d", VirtualGaBenchmark.SIZES[i]);
            for (int op = 0; op < VirtualGaBenchmark.OPS.length; op++) {
                System.out.printf(Locale.ROOT, " %12.3f %12.3f %8.2f", r.gaUs()[op][i], r.shmemUs()[op][i],
                    r.efficiency(op, i));
            }
            System.out.println();
        }
        System.out.printf(Locale.ROOT, "model: GA get 8 B = %.3f us, put stream r_inf = %.2f MB/s, n1/2 = %.1f bytes; "
            + "least efficiency over SHMEM: put %.2f, get %.2f, acc %.2f%n", r.gaUs()[1][0], r.putRInfMBps(),
            r.putNHalfBytes(), r.minEfficiency(0), r.minEfficiency(1), r.minEfficiency(2));
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "ga");
            ClockOptions.virtualConfig(root, "pes", 2, r.machine(), r.frameBytes(), r.wallSeconds());
            final ObjectNode m = root.putObject("metrics");
            m.put("model_ga_get_latency_us_8B", r.gaUs()[1][0]);
            m.put("model_ga_put_r_inf_MBps", r.putRInfMBps());
            m.put("model_ga_put_n_half_bytes", r.putNHalfBytes());
            m.put("model_ga_min_put_efficiency", r.minEfficiency(0));
            m.put("model_ga_min_get_efficiency", r.minEfficiency(1));
            m.put("model_ga_min_acc_efficiency", r.minEfficiency(2));
            final ArrayNode rows = root.putArray("model_ga_curve");
            for (int i = 0; i < VirtualGaBenchmark.SIZES.length; i++) {
                final ObjectNode row = rows.addObject().put("bytes", VirtualGaBenchmark.SIZES[i]);
                for (int op = 0; op < VirtualGaBenchmark.OPS.length; op++) {
                    final String k = VirtualGaBenchmark.OPS[op];
                    row.put("ga_" + k + "_us", r.gaUs()[op][i]).put("shmem_" + k + "_us", r.shmemUs()[op][i])
                        .put(k + "_efficiency", r.efficiency(op, i));
                }
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }
}
