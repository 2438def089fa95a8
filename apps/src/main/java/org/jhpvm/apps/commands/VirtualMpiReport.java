package org.jhpvm.apps.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.VirtualMpiBenchmark;
import org.jhpvm.fabric.ClockSettings;

/**
 * {@code bench mpi --clock virtual}: MPI-FM's latency, bandwidth and efficiency over FM on a modelled machine, next
 * to the paper's figures where the machine is FM 2.x's ({@code ppro-pci-1998}: 17 us, 70 MB/s).
 */
final class VirtualMpiReport {
    private static final double MIB = 1024.0 * 1024.0;

    private VirtualMpiReport() {
    }

    static int run(final ClockSettings clock, final Path json) throws IOException {
        ClockOptions.checkInProcess(clock);
        final VirtualMpiBenchmark.Result r;
        try (Progress progress = new Progress("bench mpi, virtual time", VirtualMpiBenchmark.SIZES.length)) {
            r = new VirtualMpiBenchmark(clock, 5, 200).run(progress);
        }
        System.out.printf(Locale.ROOT, "bench mpi in virtual time: 2 ranks on machine %s, switches %s; MPI's own work "
            + "as the machine file's layers.mpi costs; FM at the same sizes on the same model%n", r.machine().name(),
            r.machine().switches());
        System.out.printf(Locale.ROOT, "%10s %14s %14s %12s %12s %8s%n", "bytes", "mpi_lat_us", "fm_lat_us",
            "mpi_MBps", "fm_MBps", "mpi/fm");
        for (int i = 0; i < VirtualMpiBenchmark.SIZES.length; i++) {
            System.out.printf(Locale.ROOT, "%10d %14.3f %14.3f %12.2f %12.2f %8.3f%n", VirtualMpiBenchmark.SIZES[i],
                r.latencyUs()[i], r.fmLatencyUs()[i], r.bandwidthMBps()[i], r.fmMBps()[i],
                r.bandwidthMBps()[i] / r.fmMBps()[i]);
        }
        System.out.printf(Locale.ROOT, "model: MPI latency 8 B = %.3f us, peak %.2f MB/s (%.2f MiB/s), efficiency over "
            + "FM %.3f .. %.3f%n", r.latencyUs()[0], r.peakMBps(), r.peakMBps() * 1e6 / MIB, r.minEfficiency(),
            maxEfficiency(r));
        if (r.machine().name().equals("ppro-pci-1998")) {
            System.out.printf(Locale.ROOT, "paper (MPI-FM on FM 2.x, HPDC'98): 17 us, 70 MB/s (2^20), efficiency 0.7-0.9; "
                + "model error: latency %+.1f%%, peak %+.1f%%%n", 100 * (r.latencyUs()[0] / 17 - 1),
                100 * (r.peakMBps() * 1e6 / MIB / 70 - 1));
        }
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "mpi");
            root.putObject("config").put("ranks", 2).put("clock", "virtual").put("machine", r.machine().name());
            final ObjectNode m = root.putObject("metrics");
            m.put("model_mpi_latency_us_8B", r.latencyUs()[0]);
            m.put("model_mpi_bw_MBps_peak", r.peakMBps());
            m.put("model_mpi_r_inf_MiBps", r.peakMBps() * 1e6 / MIB);
            m.put("model_mpi_min_efficiency", r.minEfficiency());
            m.put("model_mpi_max_efficiency", maxEfficiency(r));
            final ArrayNode rows = root.putArray("model_mpi_curve");
            for (int i = 0; i < VirtualMpiBenchmark.SIZES.length; i++) {
                final ObjectNode row = rows.addObject().put("bytes", VirtualMpiBenchmark.SIZES[i])
                    .put("mpi_latency_us", r.latencyUs()[i]).put("mpi_bw_MBps", r.bandwidthMBps()[i])
                    .put("fm_bw_MBps", r.fmMBps()[i]);
                if (!Double.isNaN(r.fmLatencyUs()[i])) {
                    row.put("fm_latency_us", r.fmLatencyUs()[i]);
                }
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    private static double maxEfficiency(final VirtualMpiBenchmark.Result r) {
        double m = 0;
        for (int i = 0; i < VirtualMpiBenchmark.SIZES.length; i++) {
            m = Math.max(m, r.bandwidthMBps()[i] / r.fmMBps()[i]);
        }
        return m;
    }
}
