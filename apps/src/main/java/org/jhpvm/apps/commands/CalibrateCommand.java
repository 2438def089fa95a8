package org.jhpvm.apps.commands;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.Calibration;
import org.jhpvm.apps.bench.FmSweep;
import org.jhpvm.apps.bench.ModelCheck;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.timing.MachineFiles;
import org.jhpvm.fm.FmConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jhpvm calibrate}: measures this machine and writes the machine file {@code this-machine}. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = {"Measures FM on 2 PEs over the emulated Myrinet on this machine's wall clock (one-way latency and "
        + "the per-message time of a stream, 8 B .. 4 MiB, medians of the trials) and fits the machine file "
        + "this-machine to it: a latency and a bandwidth per message-size segment and the per-message overheads, "
        + "as SimGrid calibrates. Then runs the same sweep in virtual time on the fitted machine and prints both.",
        "Afterwards --clock virtual --machine this-machine (bench fm, bench shmem, hydro) models this machine, and "
            + "bench fm|shmem there also measure the same run on the wall clock (model_wall_error_max)."})
final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "FILE", description = "Where to write the machine file (default: "
        + "this-machine.json in ~/.jhpvm/machines, or in the directory the system property jhpvm.machines names).")
    private Path out;

    @Option(names = "--trials", paramLabel = "N", description = "Measured passes; medians are fitted (default: "
        + "${DEFAULT-VALUE}).")
    private int trials = 11;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes (default: ${DEFAULT-VALUE}).")
    private int warmups = 3;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the measured and modelled curves as JSON "
        + "(default: none).")
    private Path json;

    @Override
    public Integer call() throws IOException {
        if (trials < 1 || warmups < 0) {
            throw new IllegalArgumentException("need --trials >= 1 and --warmups >= 0");
        }
        if (Launched.environment().isPresent()) {
            throw new IllegalArgumentException("calibrate measures the emulated Myrinet in one JVM: run it without "
                + "launch");
        }
        final Path file = out != null ? out : MachineFiles.machineDirectory().resolve(MachineFiles.THIS_MACHINE
            + ".json");
        final int rendezvous = FmConfig.defaults().rendezvousBytes();
        final String on = String.format(Locale.ROOT, "%s, %d cores, Java %s, %s; medians of %d passes after %d",
            System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"), Instant.now().truncatedTo(ChronoUnit.SECONDS), trials, warmups);
        final Calibration.Fitted fitted;
        final double spsc;
        try (Progress progress = new Progress("calibrate", warmups + trials + 1)) {
            final double before = Calibration.spscHopNs();
            final FmSweep.Curve wall = FmSweep.run(FabricConfig.builder(2).build(), warmups, trials, progress);
            spsc = (before + Calibration.spscHopNs()) / 2;
            fitted = Calibration.calibrate(wall, rendezvous, on, spsc, machine -> modelled(machine, progress));
        }
        print(fitted.check(), "fitted on", "measured");
        System.out.printf(Locale.ROOT, "this machine's speed during the measurement: an SPSC hop of %.0f ns (recorded: "
            + "a later run at another speed is another machine)%n", spsc);
        final Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), fitted.file());
        System.out.printf(Locale.ROOT, "largest error of the fit: %.1f%% (latency and bandwidth over %d sizes)%n",
            100 * fitted.check().maxError(), FmSweep.SIZES.length);
        System.out.println("wrote " + file + (out == null ? " (use it as --machine " + MachineFiles.THIS_MACHINE + ")"
            : " (use it as --machine " + file + ")"));
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "calibrate");
            root.putObject("config").put("trials", trials).put("warmups", warmups).put("machine_file",
                file.toString());
            root.putObject("metrics").put("fit_error_max", fitted.check().maxError()).put("spsc_hop_ns", spsc);
            curves(root, fitted.check());
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    /** The sweep in virtual time on a machine file not yet written where it goes. */
    private static FmSweep.Curve modelled(final ObjectNode machine, final Progress progress) {
        try {
            final Path tmp = Files.createTempFile("jhpvm-machine", ".json");
            try {
                new ObjectMapper().writeValue(tmp.toFile(), machine);
                final ClockSettings clock = new ClockSettings(true, tmp.toString(), Map.of(), false);
                return FmSweep.run(FabricConfig.builder(2).frameBytes(Calibration.PACKET_BYTES).clock(clock).build(),
                    0, 1, progress);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Prints the model against the wall clock, size by size.
     *
     * @param check the curves
     * @param what  what the model is ("fitted on" or "against")
     * @param wall  what the wall-clock curve is
     */
    static void print(final ModelCheck check, final String what, final String wall) {
        System.out.printf(Locale.ROOT, "FM on 2 PEs: the model %s this machine's wall clock (%s)%n", what, wall);
        System.out.printf(Locale.ROOT, "%10s %12s %12s %8s %12s %12s %8s%n", "bytes", "lat_us", "model_us", "error",
            "MBps", "model_MBps", "error");
        for (int i = 0; i < FmSweep.SIZES.length; i++) {
            System.out.printf(Locale.ROOT, "%10d %12.3f %12.3f %+7.1f%% %12.1f %12.1f %+7.1f%%%n", FmSweep.SIZES[i],
                check.wall().latencyUs()[i], check.model().latencyUs()[i], 100 * check.latencyError(i),
                check.wall().bandwidthMBps(i), check.model().bandwidthMBps(i), 100 * check.bandwidthError(i));
        }
    }

    /**
     * Says how this machine's speed now compares with its speed when it was calibrated (an SPSC hop each time): a
     * virtual machine's moves by a factor of three, and a model calibrated at one speed predicts that one.
     *
     * @param nowNs  the hop now
     * @param thenNs the hop recorded by the calibration, NaN if the file has none
     */
    static void printSpeed(final double nowNs, final double thenNs) {
        if (Double.isNaN(thenNs)) {
            System.out.printf(Locale.ROOT, "this machine's SPSC hop now: %.0f ns (the machine file records none)%n",
                nowNs);
            return;
        }
        final double ratio = thenNs / nowNs;
        System.out.printf(Locale.ROOT, "this machine's SPSC hop: %.0f ns now, %.0f ns when calibrated (%.2fx the speed"
            + "%s)%n", nowNs, thenNs, ratio, Math.abs(ratio - 1) > 0.2 ? "; the machine is not at the speed it was "
                + "calibrated at, and the error above is mostly that: calibrate again, or compare at that speed" : "");
    }

    /**
     * Adds the curves of a check to a JSON report ({@code model_vs_wall}).
     *
     * @param root  the report
     * @param check the curves
     */
    static void curves(final ObjectNode root, final ModelCheck check) {
        final com.fasterxml.jackson.databind.node.ArrayNode points = root.putArray("model_vs_wall");
        for (int i = 0; i < FmSweep.SIZES.length; i++) {
            points.addObject().put("bytes", FmSweep.SIZES[i]).put("latency_us", check.wall().latencyUs()[i])
                .put("model_latency_us", check.model().latencyUs()[i]).put("bw_MBps", check.wall().bandwidthMBps(i))
                .put("model_bw_MBps", check.model().bandwidthMBps(i)).put("latency_error", check.latencyError(i))
                .put("bw_error", check.bandwidthError(i));
        }
    }
}
