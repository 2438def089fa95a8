package org.jhpvm.apps.commands;

import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.bench.AeronPingPong;
import org.jhpvm.apps.bench.Calibration;
import org.jhpvm.apps.bench.FmBenchmark;
import org.jhpvm.apps.bench.ModelCheck;
import org.jhpvm.apps.bench.Stats;
import org.jhpvm.apps.bench.VirtualFmBenchmark;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.timing.MachineFiles;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jhpvm bench fm}: Fast Messages against the raw SPSC queue and arraycopy, fault-free and with 1% drops. */
@Command(name = "fm", mixinStandardHelpOptions = true,
    description = {"Fast Messages (2.x streams) on 2 PEs against a raw SPSC queue and System.arraycopy.",
        "One-way latency (ping-pong) for 8 B .. 64 KiB and streaming bandwidth for 8 B .. 1 MiB, with t0, r_inf "
        + "and n1/2; the same FM sweep again over a fabric dropping 1%% of frames (the cost of reliability); 8 B "
        + "latency with the run slots of fm.scheduling=dcs against none, jobs alternated.",
        "Targets: latency_ratio (FM 8 B / spsc) <= " + BenchFmCommand.LATENCY_TARGET + ", n_half_bytes <= "
            + BenchFmCommand.N_HALF_TARGET + ", bw_ratio_64KiB (FM / arraycopy at 64 KiB) >= "
            + BenchFmCommand.BW_TARGET + ", bw_1MiB_over_64KiB (FM at 1 MiB / FM at 64 KiB) >= "
            + BenchFmCommand.LARGE_TARGET + ", dcs_latency_ratio_8B (dcs / none, paired) <= "
            + BenchFmCommand.DCS_LATENCY_TARGET + "."})
final class BenchFmCommand implements Callable<Integer> {
    static final double LATENCY_TARGET = 2.0;
    static final double N_HALF_TARGET = 256;
    static final double BW_TARGET = 0.6;
    static final double LARGE_TARGET = 0.9;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\"; "
        + "default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw latency and bandwidth curves into a PNG"
        + " (default: none).")
    private Path png;

    @Option(names = "--trials", paramLabel = "N", description = "Measured trials; medians are reported (default: "
        + "${DEFAULT-VALUE}).")
    private int trials = 5;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes per job (default: "
        + "${DEFAULT-VALUE}).")
    private int warmups = 3;

    /** Round trips per latency point by default; a tenth of it under launch over UDP (about 130 us a hop here). */
    static final int ROUND_TRIPS = 20_000;

    @Option(names = "--round-trips", paramLabel = "N", description = "Ping-pong round trips per latency point "
        + "(default: " + ROUND_TRIPS + "; " + ROUND_TRIPS / 10 + " under launch over UDP).")
    private Integer roundTripsOption;
    private int roundTrips;

    @Option(names = "--mb-per-point", paramLabel = "MB", description = "Megabytes streamed per bandwidth point "
        + "(default: ${DEFAULT-VALUE}).")
    private int mbPerPoint = 128;

    @Option(names = "--drop", paramLabel = "P", description = "Drop probability of the lossy sweep (default: "
        + "${DEFAULT-VALUE}).")
    private double drop = 0.01;

    @Option(names = "--clock", paramLabel = "wall|virtual", description = "The clock: wall (this machine, the "
        + "default) or virtual (the modelled machine's time: t0, r_inf, n1/2 and curves as the FM 1.0 paper defines "
        + "them; see --machine and --model).")
    private String clock = "wall";

    @Option(names = "--machine", paramLabel = "NAME|FILE", description = "The machine a virtual clock models: "
        + "sparc-sbus-1995 (the default), ppro-pci-1998, modern-100g, this-machine (after bin/jhpvm calibrate: "
        + "the run is then also measured on the wall clock, model_wall_error_max), or a machine file.")
    private String machine = ClockSettings.DEFAULT_MACHINE;

    @Option(names = "--model", paramLabel = "KEY=VALUE", description = "A switch of the machine's model, e.g. "
        + "lcp=baseline or sbus=dma (repeatable; info --all lists each machine's switches; default: the machine's "
        + "own choices, for sparc-sbus-1995 FM 1.0 as released).")
    private java.util.Map<String, String> model = new java.util.LinkedHashMap<>();

    @Option(names = "--cpu", paramLabel = "measured|declared", description = "In virtual time, whether the PEs' "
        + "computation counts their CPU time (scaled by the machine's cpu_scale) or nothing: the machine's host "
        + "stages model FM's software (default: ${DEFAULT-VALUE}).")
    private String cpu = "declared";

    @Override
    public Integer call() throws Exception {
        roundTrips = roundTripsOption != null ? roundTripsOption
            : Launched.environment().isPresent() && Launched.path().equals("aeron_udp") ? ROUND_TRIPS / 10
            : ROUND_TRIPS;
        if (!clock.equals("wall")) {
            return virtual();
        }
        if (!model.isEmpty() || !machine.equals(ClockSettings.DEFAULT_MACHINE)) {
            throw new IllegalArgumentException("--machine and --model describe a virtual clock: add --clock virtual");
        }
        if (trials < 1 || warmups < 0 || roundTrips < 1 || mbPerPoint < 1 || drop <= 0 || drop >= 1) {
            throw new IllegalArgumentException("need --trials >= 1, --warmups >= 0, --round-trips >= 1, "
                + "--mb-per-point >= 1, 0 < --drop < 1");
        }
        final FmBenchmark bench = new FmBenchmark(trials, warmups, roundTrips, (long) mbPerPoint << 20, drop);
        if (Launched.environment().isPresent()) {
            return launched(bench);
        }
        final FmBenchmark.Result r;
        try (Progress progress = new Progress("bench fm", bench.steps())) {
            r = bench.run(progress);
        }
        print(r);
        if (json != null) {
            Reports.writeJson(json, toJson(r));
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, charts(r));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    /** {@code --clock virtual}: the FM 1.0 paper's figures on a modelled machine. */
    private int virtual() throws IOException {
        if (!clock.equals("virtual")) {
            throw new IllegalArgumentException("--clock " + clock + ": must be wall or virtual");
        }
        if (!cpu.equals("measured") && !cpu.equals("declared")) {
            throw new IllegalArgumentException("--cpu " + cpu + ": must be measured or declared");
        }
        if (Launched.environment().isPresent()) {
            throw new IllegalArgumentException("--clock virtual runs the emulated Myrinet in one JVM: run it without "
                + "launch");
        }
        final ClockSettings settings = new ClockSettings(true, machine, model, cpu.equals("measured"));
        settings.model(); // a bad machine or switch fails here, before anything runs
        final VirtualFmBenchmark bench = new VirtualFmBenchmark(settings, Math.max(1, roundTrips / 1000), 400);
        final VirtualFmBenchmark.Result r;
        final VirtualFmBenchmark.Result lossy;
        try (Progress progress = new Progress("bench fm, virtual time", 2 * VirtualFmBenchmark.steps())) {
            r = bench.run(progress);
            lossy = bench.run(progress, drop);
        }
        VirtualBenchReport.print(r, settings);
        VirtualBenchReport.printLossy(lossy, r, drop);
        // A machine calibrated here: the same sweep on both clocks says how well the model predicts this machine.
        ModelCheck check = null;
        double spscNow = Double.NaN;
        final double spscThen = r.machine().name().equals(MachineFiles.THIS_MACHINE)
            ? MachineFiles.note(machine, Calibration.SPSC_NOTE) : Double.NaN;
        if (r.machine().name().equals(MachineFiles.THIS_MACHINE)) {
            try (Progress progress = new Progress("bench fm, model against wall clock", 1 + warmups + 2 * trials)) {
                final double before = Calibration.spscHopNs();
                check = ModelCheck.fm(settings, warmups, 2 * trials, progress);
                spscNow = (before + Calibration.spscHopNs()) / 2;
            }
            CalibrateCommand.print(check, "against", "medians of " + 2 * trials + " passes");
            System.out.printf(Locale.ROOT, "model_wall_error_max = %.1f%% (target <= 20%%)%n", 100 * check.maxError());
            CalibrateCommand.printSpeed(spscNow, spscThen);
        }
        if (json != null) {
            final ObjectNode root = VirtualBenchReport.json(r, settings, lossy, drop);
            if (check != null) {
                final ObjectNode m = (ObjectNode) root.get("metrics");
                m.put("model_wall_error_max", check.maxError());
                m.put("model_wall_latency_error_max", check.maxLatencyError());
                m.put("model_wall_bw_error_max", check.maxBandwidthError());
                m.put("wall_spsc_hop_ns", spscNow);
                if (!Double.isNaN(spscThen)) {
                    m.put("calibrated_spsc_hop_ns", spscThen);
                    m.put("wall_speed_vs_calibrated", spscThen / spscNow);
                }
                CalibrateCommand.curves(root, check);
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, VirtualBenchReport.charts(r));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    /** Target of the run slots: 8 B latency under {@code dcs} at most this times that under {@code none}. */
    static final double DCS_LATENCY_TARGET = 1.1;

    /** Target of FM over Aeron IPC: one-way 8 B latency at most this times Aeron's own ping-pong. */
    static final double AERON_OVERHEAD_TARGET = 1.3;

    /** Target of FM between 2 processes of a host: 8 B latency at most this times FM's in one JVM. */
    static final double PROCESS_LATENCY_TARGET = 1.3;

    /** Target of FM between 2 processes: 1 MiB bandwidth at least this times the 64 KiB bandwidth. */
    static final double BW_1MIB_OVER_64KIB_TARGET = 0.9;

    /**
     * Under {@code jhpvm launch -n 2}: the FM sweep over the launched fabric (Aeron IPC, or UDP), then, on rank 0, the
     * same sweep in this JVM over the emulated Myrinet and Aeron's own ping-pong sample, side by side.
     */
    private int launched(final FmBenchmark bench) throws Exception {
        final var env = Launched.environment().orElseThrow();
        final String kind = Launched.twoPeTransport("bench fm");
        final boolean udp = kind.equals("udp");
        // Aeron's own ping-pong runs on PE 0 before each measured trial, while PE 1 waits: the machine (on a VM, where
        // the two threads land) changes over minutes, so each trial is compared with a baseline taken next to it.
        final String channel = udp ? "aeron:udp?endpoint=localhost:" + (env.basePort() + 97) : "aeron:ipc";
        final double[] sample = new double[trials];
        final FmBenchmark.Sweep aeron;
        try (Progress progress = new Progress("bench fm over Aeron " + kind, warmups + trials)) {
            aeron = bench.cleanSweepPerRoundTrip(progress, t -> sample[t] = samplePingNs(channel));
        }
        if (!Launched.reports()) {
            return 0;
        }
        final FmBenchmark.Sweep emulated;
        try (Progress progress = new Progress("bench fm in-JVM", warmups + trials)) {
            emulated = bench.inProcessSweep(progress);
        }
        final double samplePingNs = Stats.median(sample);
        final double lat8 = aeron.latencyMedianNs()[0];
        final double ratio = lat8 / samplePingNs;
        System.out.printf("bench fm under launch: 2 PEs in %d process(es), FM over Aeron %s next to FM over the "
            + "emulated Myrinet in one JVM; medians of %d trials after %d warm-up passes. One-way latency: half the "
            + "median round trip of a trial (as Aeron's sample reports it), and the trial's mean (all round trips over "
            + "the time)%n", env.processes(), kind.toUpperCase(java.util.Locale.ROOT), trials, warmups);
        System.out.printf("%10s %14s %16s %14s %16s%n", "bytes", "aeron_fm_ns", "aeron_fm_mean_ns",
            "emulated_fm_ns", "emulated_mean_ns");
        for (int i = 0; i < FmBenchmark.LATENCY_SIZES.length; i++) {
            System.out.printf("%10d %14.1f %16.1f %14.1f %16.1f%n", FmBenchmark.LATENCY_SIZES[i],
                aeron.latencyMedianNs()[i], aeron.latencyNs()[i], emulated.latencyMedianNs()[i],
                emulated.latencyNs()[i]);
        }
        System.out.printf("%10s %14s %16s%n", "bytes", "aeron_fm_MBps", "emulated_fm_MBps");
        for (int i = 0; i < FmBenchmark.BANDWIDTH_SIZES.length; i++) {
            System.out.printf("%10d %14.1f %16.1f%n", FmBenchmark.BANDWIDTH_SIZES[i], aeron.bandwidthMBps()[i],
                emulated.bandwidthMBps()[i]);
        }
        System.out.printf("Aeron's own ping-pong (io.aeron.samples.EmbeddedPingPong, %s, 32 B, one JVM, before each "
            + "trial): %.1f ns one-way (half the median round trip; trials %s)%n", channel, samplePingNs,
            Arrays.toString(sample));
        // The target is for IPC; over UDP both sides measure mostly how 2 cores share their threads.
        final boolean met = ratio <= AERON_OVERHEAD_TARGET;
        System.out.printf("aeron_overhead_ratio = %.2f (FM 8 B over Aeron %s / Aeron's ping-pong; %s)%n", ratio, kind,
            kind.equals("ipc") ? String.format("target <= %.1f: %s", AERON_OVERHEAD_TARGET, met ? "met" : "MISSED")
                : "the target <= " + AERON_OVERHEAD_TARGET + " is for IPC");
        // Issue 32's figures of FM between the processes of a host (over IPC: Aeron's log buffers in /dev/shm).
        final double processRatio = lat8 / emulated.latencyMedianNs()[0];
        final double bwRatio = aeron.bandwidthAt(1 << 20) / aeron.bandwidthAt(65536);
        final boolean ipc = kind.equals("ipc");
        System.out.printf("process_fm_latency_ratio_8B = %.2f (FM 8 B between 2 processes / in one JVM, medians; %s)%n",
            processRatio, ipc ? String.format("target <= %.1f: %s", PROCESS_LATENCY_TARGET,
                processRatio <= PROCESS_LATENCY_TARGET ? "met" : "MISSED") : "the target is for one host, IPC");
        System.out.printf("bw_1MiB_over_64KiB = %.2f (FM between 2 processes; target >= %.1f: %s)%n", bwRatio,
            BW_1MIB_OVER_64KIB_TARGET, bwRatio >= BW_1MIB_OVER_64KIB_TARGET ? "met" : "MISSED");
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "fm");
            final ObjectNode cfg = root.putObject("config");
            cfg.put("pes", 2).put("processes", env.processes()).put("transport", kind).put("trials", trials)
                .put("warmups", warmups).put("round_trips", roundTrips).put("mb_per_point", mbPerPoint)
                .put("cores", Runtime.getRuntime().availableProcessors()).put("java", System.getProperty("java.version"));
            final ObjectNode m = root.putObject("metrics");
            m.put("aeron_" + kind + "_fm_latency_ns_8B", lat8);
            m.put("aeron_" + kind + "_fm_latency_mean_ns_8B", aeron.latencyNs()[0]);
            m.put("aeron_" + kind + "_fm_bw_MBps_64KiB", aeron.bandwidthAt(65536));
            m.put("aeron_" + kind + "_fm_r_inf_MBps", aeron.peakMBps());
            m.put("aeron_" + kind + "_fm_n_half_bytes", aeron.halfPowerBytes());
            m.put("emulated_fm_latency_ns_8B", emulated.latencyMedianNs()[0]);
            m.put("emulated_fm_latency_mean_ns_8B", emulated.latencyNs()[0]);
            m.put("emulated_fm_bw_MBps_64KiB", emulated.bandwidthAt(65536));
            m.put("aeron_pingpong_latency_ns_32B", samplePingNs);
            m.put("aeron_overhead_ratio", ratio);
            m.put("process_fm_latency_ratio_8B", processRatio);
            m.put("bw_1MiB_over_64KiB", bwRatio);
            final ObjectNode targets = root.putObject("targets");
            targets.put("aeron_overhead_ratio_max", AERON_OVERHEAD_TARGET);
            targets.put("process_fm_latency_ratio_8B_max", PROCESS_LATENCY_TARGET);
            targets.put("bw_1MiB_over_64KiB_min", BW_1MIB_OVER_64KIB_TARGET);
            targets.put("bw_1MiB_over_64KiB_met", bwRatio >= BW_1MIB_OVER_64KIB_TARGET);
            if (ipc) {
                targets.put("aeron_overhead_ratio_met", met);
                targets.put("process_fm_latency_ratio_8B_met", processRatio <= PROCESS_LATENCY_TARGET);
            }
            final ArrayNode baseline = root.putArray("aeron_pingpong_latency_ns_32B_trials");
            for (final double v : sample) {
                baseline.add(v);
            }
            final ArrayNode lat = root.putArray("latency");
            for (int i = 0; i < FmBenchmark.LATENCY_SIZES.length; i++) {
                lat.addObject().put("bytes", FmBenchmark.LATENCY_SIZES[i]).put("aeron_fm_latency_ns",
                    aeron.latencyMedianNs()[i]).put("aeron_fm_latency_mean_ns", aeron.latencyNs()[i])
                    .put("emulated_fm_latency_ns", emulated.latencyMedianNs()[i])
                    .put("emulated_fm_latency_mean_ns", emulated.latencyNs()[i]);
            }
            final ArrayNode bw = root.putArray("bandwidth");
            for (int i = 0; i < FmBenchmark.BANDWIDTH_SIZES.length; i++) {
                bw.addObject().put("bytes", FmBenchmark.BANDWIDTH_SIZES[i]).put("aeron_fm_bw_MBps",
                    aeron.bandwidthMBps()[i]).put("emulated_fm_bw_MBps", emulated.bandwidthMBps()[i]);
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    private double samplePingNs(final String channel) {
        try {
            // Over UDP the sample's five spinning threads (ping, pong, and a driver's sender, receiver and conductor)
            // share the cores: on 2 cores a round trip took 4-8 ms (2026-11-29, the machine otherwise idle), and
            // 3,000 of them per trial made `launch --transport udp -- bench fm` run past 5 minutes. So over UDP it
            // runs 300 after 200 warm-up ones (a few seconds), enough for a median.
            final boolean udp = channel.startsWith("aeron:udp");
            final int messages = udp ? 300 : Math.max(10_000, roundTrips * 5);
            return AeronPingPong.oneWayNs(channel, messages, udp ? 200 : Math.max(1_000, messages / 2), 32);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Aeron's ping-pong ran", e);
        }
    }

    private void print(final FmBenchmark.Result r) {
        System.out.printf("bench fm: 2 PEs over the emulated Myrinet (default fabric and FM settings), median of %d "
            + "trials after %d warm-up passes; lossy sweep drops %.1f%% of frames%n", trials, warmups, 100 * drop);
        System.out.printf("%10s %12s %12s %8s%n", "bytes", "fm_ns", "spsc_ns(8B)", "ratio");
        for (int i = 0; i < FmBenchmark.LATENCY_SIZES.length; i++) {
            System.out.printf("%10d %12.1f %12.1f %8.2f%n", FmBenchmark.LATENCY_SIZES[i], r.clean().latencyNs()[i],
                r.spscNs(), r.clean().latencyNs()[i] / r.spscNs());
        }
        System.out.printf("%10s %12s %14s %8s %16s%n", "bytes", "fm_MBps", "arraycopy_MBps", "ratio",
            "fm_MBps_drop");
        for (int i = 0; i < FmBenchmark.BANDWIDTH_SIZES.length; i++) {
            System.out.printf("%10d %12.1f %14.1f %8.2f %16.1f%n", FmBenchmark.BANDWIDTH_SIZES[i],
                r.clean().bandwidthMBps()[i], r.arraycopyMBps()[i],
                r.clean().bandwidthMBps()[i] / r.arraycopyMBps()[i], r.lossy().bandwidthMBps()[i]);
        }
        System.out.printf("t0 = %.1f ns, r_inf = %.1f MB/s, n1/2 = %.0f bytes (target <= %.0f: %s)%n",
            r.clean().t0Ns(), r.clean().peakMBps(), r.clean().halfPowerBytes(), N_HALF_TARGET,
            r.clean().halfPowerBytes() <= N_HALF_TARGET ? "met" : "MISSED");
        System.out.printf("latency_ratio  = %.2f (target <= %.1f: %s)%n", r.latencyRatio(), LATENCY_TARGET,
            r.latencyRatio() <= LATENCY_TARGET ? "met" : "MISSED");
        System.out.printf("bw_ratio_64KiB = %.2f (target >= %.1f: %s)%n", r.bwRatio64KiB(), BW_TARGET,
            r.bwRatio64KiB() >= BW_TARGET ? "met" : "MISSED");
        System.out.printf("bw_1MiB_over_64KiB = %.2f (target >= %.1f: %s)%n", r.largeOver64KiB(), LARGE_TARGET,
            r.largeOver64KiB() >= LARGE_TARGET ? "met" : "MISSED");
        System.out.printf("8 B latency with run slots: dcs %.1f ns, none %.1f ns (medians; 2 PEs, %d cores); "
            + "dcs_latency_ratio_8B = %.2f (paired, target <= %.1f: %s)%n", r.scheduling().dcsMedianNs(),
            r.scheduling().noneMedianNs(), Runtime.getRuntime().availableProcessors(), r.scheduling().ratio(),
            DCS_LATENCY_TARGET, r.scheduling().ratio() <= DCS_LATENCY_TARGET ? "met" : "MISSED");
        System.out.printf("rendezvous: %d messages (those of at least fm.rendezvousBytes) moved by RDMA from the "
            + "sender's array into the receiver's%n", r.clean().rendezvousMessages());
        System.out.printf("lossy sweep: %d frames dropped by the fabric, %d retransmitted by FM; 64 KiB bandwidth "
            + "%.1f MB/s (%.0f%% of fault-free)%n", r.lossy().dropped(), r.lossy().retransmitted(),
            r.lossy().bandwidthAt(65536), 100 * r.lossy().bandwidthAt(65536) / r.clean().bandwidthAt(65536));
    }

    private ObjectNode toJson(final FmBenchmark.Result r) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "fm");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("pes", 2);
        cfg.put("trials", trials);
        cfg.put("warmups", warmups);
        cfg.put("round_trips", roundTrips);
        cfg.put("mb_per_point", mbPerPoint);
        cfg.put("drop", drop);
        cfg.put("cores", Runtime.getRuntime().availableProcessors());
        cfg.put("java", System.getProperty("java.version"));
        final ObjectNode m = root.putObject("metrics");
        m.put("fm_latency_ns_8B", r.clean().latencyNs()[0]);
        m.put("spsc_latency_ns", r.spscNs());
        m.put("latency_ratio", r.latencyRatio());
        m.put("t0_ns", r.clean().t0Ns());
        m.put("r_inf_MBps", r.clean().peakMBps());
        m.put("n_half_bytes", r.clean().halfPowerBytes());
        m.put("fm_bw_MBps_64KiB", r.clean().bandwidthAt(65536));
        m.put("arraycopy_bw_MBps_64KiB", r.arraycopyAt64KiB());
        m.put("bw_ratio_64KiB", r.bwRatio64KiB());
        m.put("fm_bw_MBps_1MiB", r.clean().bandwidthAt(1 << 20));
        m.put("bw_1MiB_over_64KiB", r.largeOver64KiB());
        m.put("rendezvous_messages", r.clean().rendezvousMessages());
        m.put("fm_latency_ns_8B_none", r.scheduling().noneMedianNs());
        m.put("fm_latency_ns_8B_dcs", r.scheduling().dcsMedianNs());
        m.put("dcs_latency_ratio_8B", r.scheduling().ratio());
        m.put("fm_bw_MBps_64KiB_drop1pct", r.lossy().bandwidthAt(65536));
        m.put("fm_latency_ns_8B_drop1pct", r.lossy().latencyNs()[0]);
        m.put("r_inf_MBps_drop1pct", r.lossy().peakMBps());
        m.put("frames_dropped_drop1pct", r.lossy().dropped());
        m.put("frames_retransmitted_drop1pct", r.lossy().retransmitted());
        final ObjectNode targets = root.putObject("targets");
        targets.put("latency_ratio_max", LATENCY_TARGET);
        targets.put("n_half_bytes_max", N_HALF_TARGET);
        targets.put("bw_ratio_64KiB_min", BW_TARGET);
        targets.put("latency_ratio_met", r.latencyRatio() <= LATENCY_TARGET);
        targets.put("n_half_bytes_met", r.clean().halfPowerBytes() <= N_HALF_TARGET);
        targets.put("bw_ratio_64KiB_met", r.bwRatio64KiB() >= BW_TARGET);
        targets.put("bw_1MiB_over_64KiB_min", LARGE_TARGET);
        targets.put("bw_1MiB_over_64KiB_met", r.largeOver64KiB() >= LARGE_TARGET);
        targets.put("dcs_latency_ratio_8B_max", DCS_LATENCY_TARGET);
        targets.put("dcs_latency_ratio_8B_met", r.scheduling().ratio() <= DCS_LATENCY_TARGET);
        final ArrayNode lat = root.putArray("latency");
        for (int i = 0; i < FmBenchmark.LATENCY_SIZES.length; i++) {
            final ObjectNode row = lat.addObject();
            row.put("bytes", FmBenchmark.LATENCY_SIZES[i]);
            row.put("fm_latency_ns", r.clean().latencyNs()[i]);
            row.put("fm_latency_ns_drop1pct", r.lossy().latencyNs()[i]);
        }
        final ArrayNode bw = root.putArray("bandwidth");
        for (int i = 0; i < FmBenchmark.BANDWIDTH_SIZES.length; i++) {
            final ObjectNode row = bw.addObject();
            row.put("bytes", FmBenchmark.BANDWIDTH_SIZES[i]);
            row.put("fm_bw_MBps", r.clean().bandwidthMBps()[i]);
            row.put("arraycopy_bw_MBps", r.arraycopyMBps()[i]);
            row.put("bw_ratio", r.clean().bandwidthMBps()[i] / r.arraycopyMBps()[i]);
            row.put("fm_bw_MBps_drop1pct", r.lossy().bandwidthMBps()[i]);
        }
        return root;
    }

    private static List<XYChart> charts(final FmBenchmark.Result r) {
        final double[] lx = Arrays.stream(FmBenchmark.LATENCY_SIZES).asDoubleStream().toArray();
        final XYChart latency = Reports.logLogChart("one-way latency", "ns");
        latency.addSeries("FM", lx, r.clean().latencyNs());
        latency.addSeries("FM, 1% drops", lx, r.lossy().latencyNs());
        final double[] spsc = new double[lx.length];
        Arrays.fill(spsc, r.spscNs());
        latency.addSeries("JCTools SPSC (8 B)", lx, spsc);
        final double[] bx = Arrays.stream(FmBenchmark.BANDWIDTH_SIZES).asDoubleStream().toArray();
        final XYChart bandwidth = Reports.logLogChart("streaming bandwidth", "MB/s");
        bandwidth.addSeries("FM", bx, r.clean().bandwidthMBps());
        bandwidth.addSeries("FM, 1% drops", bx, r.lossy().bandwidthMBps());
        bandwidth.addSeries("System.arraycopy", bx, r.arraycopyMBps());
        return List.of(latency, bandwidth);
    }
}
