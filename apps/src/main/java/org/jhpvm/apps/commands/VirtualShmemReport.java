package org.jhpvm.apps.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.Calibration;
import org.jhpvm.apps.bench.VirtualShmemBenchmark;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.timing.MachineFiles;

/** {@code bench shmem --clock virtual}: SHMEM's users' shapes of use on a modelled machine's clock. */
final class VirtualShmemReport {
    private VirtualShmemReport() {
    }

    static int run(final ClockSettings clock, final Path json, final int warmups, final int trials)
        throws IOException {
        ClockOptions.checkInProcess(clock);
        final VirtualShmemBenchmark.Result r;
        try (Progress progress = new Progress("bench shmem, virtual time", VirtualShmemBenchmark.SIZES.length)) {
            r = new VirtualShmemBenchmark(clock, 20, 200).run(progress);
        }
        System.out.printf(Locale.ROOT, "bench shmem in virtual time: 2 PEs on machine %s, switches %s; requests travel "
            + "as FM messages (no RDMA in virtual time)%n", r.machine().name(), r.machine().switches());
        System.out.printf(Locale.ROOT, "%10s %18s %12s %16s %12s%n", "bytes", "put+wait_until_us", "get_us",
            "put_stream_us", "put_MBps");
        for (int i = 0; i < r.sizes().length; i++) {
            System.out.printf(Locale.ROOT, "%10d %18.3f %12.3f %16.3f %12.2f%n", r.sizes()[i],
                r.pingPongUs()[i], r.getUs()[i], r.putUs()[i], r.putMBps(i));
        }
        System.out.printf(Locale.ROOT, "model: put+wait_until 8 B = %.3f us one-way, get 8 B = %.3f us, fetch-add = "
            + "%.3f us%n", r.pingPongUs()[0], r.getUs()[0], r.fetchAddUs());
        // A machine calibrated here: the same program on both clocks says how well the model predicts this machine.
        final Check check = r.machine().name().equals(MachineFiles.THIS_MACHINE) ? Check.run(clock, warmups, trials)
            : null;
        if (check != null) {
            check.print();
        }
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "shmem");
            root.putObject("config").put("pes", 2).put("clock", "virtual").put("machine", r.machine().name());
            final ObjectNode m = root.putObject("metrics");
            m.put("model_user_pingpong_us_8B", r.pingPongUs()[0]);
            m.put("model_get_latency_us_8B", r.getUs()[0]);
            m.put("model_fetch_add_latency_us", r.fetchAddUs());
            m.put("model_put_bw_MBps_64KiB", r.putMBps(r.sizes().length - 1));
            final ArrayNode rows = root.putArray("model_shmem_curve");
            for (int i = 0; i < r.sizes().length; i++) {
                rows.addObject().put("bytes", r.sizes()[i])
                    .put("user_pingpong_us", r.pingPongUs()[i]).put("get_us", r.getUs()[i])
                    .put("put_stream_us", r.putUs()[i]).put("put_MBps", r.putMBps(i));
            }
            if (check != null) {
                check.json(root, m);
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    /**
     * The same program on the model's clock and on this machine's, size by size, with the machine's speed then and
     * now.
     *
     * @param model    the modelled figures
     * @param wall     the measured ones (medians)
     * @param spscNow  this machine's SPSC hop around the measurement, ns
     * @param spscThen the hop the calibration recorded, NaN if none
     */
    record Check(VirtualShmemBenchmark.Result model, VirtualShmemBenchmark.Result wall, double spscNow,
                 double spscThen) {
        static Check run(final ClockSettings clock, final int warmups, final int trials) {
            final int sizes = VirtualShmemBenchmark.CHECK_SIZES.length;
            final VirtualShmemBenchmark.Result model;
            final VirtualShmemBenchmark.Result wall;
            final double before;
            try (Progress progress = new Progress("bench shmem, model against wall clock",
                (long) sizes * (1 + warmups + trials))) {
                model = VirtualShmemBenchmark.check(clock, 4L << 20).run(progress);
                before = Calibration.spscHopNs();
                wall = VirtualShmemBenchmark.check(ClockSettings.WALL, 4L << 20).run(warmups, trials, progress);
            }
            return new Check(model, wall, (before + Calibration.spscHopNs()) / 2,
                MachineFiles.note(clock.machine(), Calibration.SPSC_NOTE));
        }

        double[][] errors() {
            final int n = model.sizes().length;
            final double[][] e = new double[3][n];
            for (int i = 0; i < n; i++) {
                e[0][i] = model.pingPongUs()[i] / wall.pingPongUs()[i] - 1;
                e[1][i] = model.getUs()[i] / wall.getUs()[i] - 1;
                e[2][i] = model.putMBps(i) / wall.putMBps(i) - 1;
            }
            return e;
        }

        double maxError() {
            double max = 0;
            for (final double[] row : errors()) {
                for (final double v : row) {
                    max = Math.max(max, Math.abs(v));
                }
            }
            return max;
        }

        void print() {
            final double[][] e = errors();
            System.out.println("SHMEM on 2 PEs: the model against this machine's wall clock (medians)");
            System.out.printf(Locale.ROOT, "%10s %10s %10s %7s %10s %10s %7s %10s %10s %7s%n", "bytes", "pingpong",
                "model", "error", "get_us", "model", "error", "put_MBps", "model", "error");
            for (int i = 0; i < model.sizes().length; i++) {
                System.out.printf(Locale.ROOT, "%10d %10.3f %10.3f %+6.0f%% %10.3f %10.3f %+6.0f%% %10.1f %10.1f "
                    + "%+6.0f%%%n", model.sizes()[i], wall.pingPongUs()[i], model.pingPongUs()[i], 100 * e[0][i],
                    wall.getUs()[i], model.getUs()[i], 100 * e[1][i], wall.putMBps(i), model.putMBps(i),
                    100 * e[2][i]);
            }
            System.out.printf(Locale.ROOT, "model_wall_error_max = %.1f%% (target <= 20%%); fetch-add %.3f us, model "
                + "%.3f us%n", 100 * maxError(), wall.fetchAddUs(), model.fetchAddUs());
            CalibrateCommand.printSpeed(spscNow, spscThen);
        }

        void json(final ObjectNode root, final ObjectNode metrics) {
            metrics.put("model_wall_error_max", maxError());
            metrics.put("wall_spsc_hop_ns", spscNow);
            if (!Double.isNaN(spscThen)) {
                metrics.put("calibrated_spsc_hop_ns", spscThen);
                metrics.put("wall_speed_vs_calibrated", spscThen / spscNow);
            }
            final double[][] e = errors();
            final ArrayNode rows = root.putArray("model_vs_wall");
            for (int i = 0; i < model.sizes().length; i++) {
                rows.addObject().put("bytes", model.sizes()[i]).put("user_pingpong_us", wall.pingPongUs()[i])
                    .put("model_user_pingpong_us", model.pingPongUs()[i]).put("get_us", wall.getUs()[i])
                    .put("model_get_us", model.getUs()[i]).put("put_MBps", wall.putMBps(i))
                    .put("model_put_MBps", model.putMBps(i)).put("pingpong_error", e[0][i])
                    .put("get_error", e[1][i]).put("put_bw_error", e[2][i]);
            }
        }
    }
}
