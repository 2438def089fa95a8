package org.jhpvm.apps.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.VirtualShmemBenchmark;
import org.jhpvm.fabric.ClockSettings;

/** {@code bench shmem --clock virtual}: SHMEM's users' shapes of use on a modelled machine's clock. */
final class VirtualShmemReport {
    private VirtualShmemReport() {
    }

    static int run(final ClockSettings clock, final Path json) throws IOException {
        if (Launched.environment().isPresent()) {
            throw new IllegalArgumentException("--clock virtual runs the emulated Myrinet in one JVM: run it without "
                + "launch");
        }
        clock.model(); // a bad machine or switch fails here
        final VirtualShmemBenchmark.Result r;
        try (Progress progress = new Progress("bench shmem, virtual time", VirtualShmemBenchmark.SIZES.length)) {
            r = new VirtualShmemBenchmark(clock, 20, 200).run(progress);
        }
        System.out.printf(Locale.ROOT, "bench shmem in virtual time: 2 PEs on machine %s, switches %s; requests travel "
            + "as FM messages (no RDMA in virtual time)%n", r.machine().name(), r.machine().switches());
        System.out.printf(Locale.ROOT, "%10s %18s %12s %16s %12s%n", "bytes", "put+wait_until_us", "get_us",
            "put_stream_us", "put_MBps");
        for (int i = 0; i < VirtualShmemBenchmark.SIZES.length; i++) {
            System.out.printf(Locale.ROOT, "%10d %18.3f %12.3f %16.3f %12.2f%n", VirtualShmemBenchmark.SIZES[i],
                r.pingPongUs()[i], r.getUs()[i], r.putUs()[i], r.putMBps(i));
        }
        System.out.printf(Locale.ROOT, "model: put+wait_until 8 B = %.3f us one-way, get 8 B = %.3f us, fetch-add = "
            + "%.3f us%n", r.pingPongUs()[0], r.getUs()[0], r.fetchAddUs());
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "shmem");
            root.putObject("config").put("pes", 2).put("clock", "virtual").put("machine", r.machine().name());
            final ObjectNode m = root.putObject("metrics");
            m.put("model_user_pingpong_us_8B", r.pingPongUs()[0]);
            m.put("model_get_latency_us_8B", r.getUs()[0]);
            m.put("model_fetch_add_latency_us", r.fetchAddUs());
            m.put("model_put_bw_MBps_64KiB", r.putMBps(VirtualShmemBenchmark.SIZES.length - 1));
            final ArrayNode rows = root.putArray("model_shmem_curve");
            for (int i = 0; i < VirtualShmemBenchmark.SIZES.length; i++) {
                rows.addObject().put("bytes", VirtualShmemBenchmark.SIZES[i])
                    .put("user_pingpong_us", r.pingPongUs()[i]).put("get_us", r.getUs()[i])
                    .put("put_stream_us", r.putUs()[i]).put("put_MBps", r.putMBps(i));
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }
}
