package org.jhpvm.apps.bench;

import java.util.Locale;
import java.util.function.Function;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.fabric.timing.MachineFiles;

/**
 * {@code this-machine}: a machine file fitted to FM's curves measured on this host ({@link FmSweep} on the wall-clock
 * emulated Myrinet), as SimGrid calibrates a platform: a latency and a bandwidth per message-size segment, and the
 * per-message overheads.
 * <p>
 * Two segments, split at FM's rendezvous threshold (below it a message is copied through frames; from it on the
 * receiver pulls it by RDMA, which costs differently per message and per byte). In each, two lines are fitted by
 * least squares of the relative error: the per-message time of a long stream, {@code g(s) = g0 + g1 s}, and the one-way
 * latency, {@code l(s) = l0 + l1 s}. They become stages of the timing model: the sender's work per message is the
 * stream's per-message time (in a stream the sender is the bottleneck); what latency has beyond it is the wire
 * (a latency common to both segments) and the receiver's work (its fixed part and its per-byte part, each at most the
 * sender's, so that the receiver never slows a stream). Modelled messages travel as one packet up to
 * {@link #PACKET_BYTES}. This machine's CPU time counts one for one ({@code cpu_scale} 1).
 */
public final class Calibration {
    /** The modelled packet: a message up to this size is one frame of the virtual fabric. */
    public static final int PACKET_BYTES = 1 << 20;
    /** The note of the machine file that records {@link #spscHopNs()} at the calibration. */
    public static final String SPSC_NOTE = "spsc_hop_ns";

    private Calibration() {
    }

    /**
     * A line {@code a + b s} fitted to points by least squares of the relative error, with {@code a, b >= 0}.
     *
     * @param a the intercept
     * @param b the slope
     */
    record Line(double a, double b) {
        double at(final double s) {
            return a + b * s;
        }

        /** Fits the points {@code (x, y)} whose {@code sizes} lie in {@code [from, to)}. */
        static Line fit(final int[] sizes, final double[] x, final double[] y, final int from, final int to) {
            // Weighted least squares, weights 1 / y^2: minimises the sum of ((a + b s - y) / y)^2.
            double sw = 0;
            double sx = 0;
            double sy = 0;
            double sxx = 0;
            double sxy = 0;
            for (int i = 0; i < sizes.length; i++) {
                if (sizes[i] < from || sizes[i] >= to) {
                    continue;
                }
                final double w = 1 / (y[i] * y[i]);
                sw += w;
                sx += w * x[i];
                sy += w * y[i];
                sxx += w * x[i] * x[i];
                sxy += w * x[i] * y[i];
            }
            if (sw == 0) {
                throw new IllegalArgumentException("no measured size in [" + from + ", " + to + ")");
            }
            final double det = sw * sxx - sx * sx;
            double b = Math.abs(det) <= 1e-12 * sw * sxx ? 0 : (sw * sxy - sx * sy) / det;
            double a = (sy - b * sx) / sw;
            if (b < 0) {
                b = 0;
                a = sy / sw;
            } else if (a < 0) {
                a = 0;
                b = sxy / sxx;
            }
            return new Line(a, b);
        }
    }

    /**
     * The calibrated machine: the lines fitted to the measured curves, and the modelled run of the fit against the
     * measurement (the model is not the sum of its lines: a message of several packets is a pipeline, and FM adds its
     * acknowledgements).
     *
     * @param wall            FM's curves over {@link FmSweep#SIZES}, measured on this machine's wall clock
     * @param rendezvousBytes FM's rendezvous threshold in the measured runs (the segments' split)
     * @param measuredOn      a line saying where and when it was measured, for the file's sources
     * @param spscHopNs       {@link #spscHopNs()} around the measurement, recorded in the file's notes
     * @param model           runs {@link FmSweep} in virtual time on a machine file
     * @return the machine file, with its modelled curves
     */
    public static Fitted calibrate(final FmSweep.Curve wall, final int rendezvousBytes, final String measuredOn,
                                   final double spscHopNs, final Function<ObjectNode, FmSweep.Curve> model) {
        final ObjectNode file = machineFile(wall, rendezvousBytes, measuredOn);
        final ModelCheck check = new ModelCheck(model.apply(file), wall);
        final ObjectNode notes = file.putObject("notes");
        notes.put("fit_error_max", check.maxError());
        notes.put(SPSC_NOTE, spscHopNs);
        final ArrayNode points = notes.putArray("measured");
        for (int i = 0; i < FmSweep.SIZES.length; i++) {
            points.addObject().put("bytes", FmSweep.SIZES[i]).put("latency_us", wall.latencyUs()[i])
                .put("per_message_us", wall.perMessageUs()[i]).put("model_latency_us", check.model().latencyUs()[i])
                .put("model_per_message_us", check.model().perMessageUs()[i]);
        }
        return new Fitted(file, check);
    }

    /**
     * This machine's speed of the moment: the one-way time of an SPSC queue hop between two threads (median of 5
     * runs). On a virtual machine it moves by a factor of three as the host places the virtual CPUs, and every figure
     * of FM's with it: a model calibrated at one speed predicts that speed, and the hop says which the machine had.
     *
     * @return nanoseconds
     */
    public static double spscHopNs() {
        final double[] ns = new double[5];
        try (PairRunner pair = new PairRunner("calibrate-spsc", 60)) {
            FabricBenchmark.spscLatencyNs(pair, 32, 20_000);
            for (int t = 0; t < ns.length; t++) {
                ns[t] = FabricBenchmark.spscLatencyNs(pair, 32, 20_000);
            }
        }
        return Stats.median(ns);
    }

    /**
     * A calibrated machine file.
     *
     * @param file  the machine file's JSON
     * @param check its modelled curves against the measured ones
     */
    public record Fitted(ObjectNode file, ModelCheck check) {
    }

    /**
     * The machine file fitted to curves.
     *
     * @param wall            curves over {@link FmSweep#SIZES}, measured
     * @param rendezvousBytes FM's rendezvous threshold in the measured runs (the segments' split)
     * @param measuredOn      a line saying where and when it was measured, for the file's sources
     * @return the machine file's JSON
     */
    static ObjectNode machineFile(final FmSweep.Curve wall, final int rendezvousBytes, final String measuredOn) {
        final int[] bounds = {0, rendezvousBytes, PACKET_BYTES};
        final Line[] send = new Line[bounds.length];
        final Line[] recv = new Line[bounds.length];
        final Line[] gaps = new Line[bounds.length];
        final Line[] lats = new Line[bounds.length];
        final double[] packetSizes = new double[FmSweep.SIZES.length];
        for (int i = 0; i < packetSizes.length; i++) {
            packetSizes[i] = Math.min(FmSweep.SIZES[i], PACKET_BYTES);
        }
        double wireUs = 0;
        for (int j = 0; j < bounds.length; j++) {
            final int from = bounds[j];
            final int to = j + 1 < bounds.length ? bounds[j + 1] : Integer.MAX_VALUE;
            gaps[j] = Line.fit(FmSweep.SIZES, packetSizes, perPacket(wall.perMessageUs()), from, to);
            // Latencies of messages of one packet only: those of more are a pipeline, not a line.
            lats[j] = Line.fit(FmSweep.SIZES, packetSizes, wall.latencyUs(), from, Math.min(to, PACKET_BYTES + 1));
            send[j] = gaps[j];
            final double beyond = Math.max(0, lats[j].a() - gaps[j].a());
            final double recvFixed;
            if (j == 0) {
                // The receiver takes half of what latency has beyond the sender's work (at most the sender's own
                // work, so that it never slows a stream); the wire the rest, the same for every size.
                recvFixed = Math.min(gaps[j].a(), beyond / 2);
                wireUs = Math.max(0.001, beyond - recvFixed);
            } else {
                recvFixed = Math.min(gaps[j].a(), Math.max(0, beyond - wireUs));
            }
            recv[j] = new Line(recvFixed, Math.min(gaps[j].b(), Math.max(0, lats[j].b() - gaps[j].b())));
        }
        final ObjectMapper json = new ObjectMapper();
        final ObjectNode root = json.createObjectNode();
        root.put("schema", 1);
        root.put("name", MachineFiles.THIS_MACHINE);
        root.put("description", "This host, measured by bin/jhpvm calibrate: FM over the emulated Myrinet on 2 PEs, "
            + "fitted per message-size segment (" + measuredOn + ")");
        root.put("cpu_scale", 1.0);
        root.put("header_bytes", 0);
        root.put("packet_bytes", PACKET_BYTES);
        final ObjectNode stages = root.putObject("stages");
        stage(stages.putObject("host_send"), bounds, send);
        stages.putObject("nic_tx").put("fixed_ns", 0);
        // The wire: a latency; its rate is this machine's memory, already in the hosts' per-byte costs.
        stages.putObject("link").put("latency_ns", round(wireUs * 1000)).put("MBps", 1.0e7);
        stages.putObject("nic_rx").put("fixed_ns", 0);
        stage(stages.putObject("host_recv"), bounds, recv);
        stages.putObject("host_poll").put("fixed_ns", round(Math.min(10, wireUs * 1000 / 2)));
        final ObjectNode src = root.putObject("sources");
        src.put("measured", measuredOn);
        final StringBuilder fits = new StringBuilder();
        for (int j = 0; j < bounds.length; j++) {
            fits.append(String.format(Locale.ROOT, "%sfrom %d B: per message %.4f us + %.6f us/B, latency %.4f us + "
                + "%.6f us/B", j == 0 ? "" : "; ", bounds[j], gaps[j].a(), gaps[j].b(), lats[j].a(), lats[j].b()));
        }
        src.put("fits", "FM on this machine, lines fitted to the per-message time of a long stream and to the one-way "
            + "latency (per packet of 1 MiB above it), " + fits);
        src.put("stages.host_send", "the per-message time of a stream, per segment: in a stream the sender is the "
            + "bottleneck");
        src.put("stages.link.latency_ns", "below the rendezvous threshold, what the latency's fixed part has beyond "
            + "the sender's work, less the receiver's half");
        src.put("stages.host_recv", "the rest of each segment's latency: its fixed part less the sender's and the "
            + "wire's, its per-byte part less the stream's (each at most the sender's)");
        src.put("stages.host_poll.fixed_ns", "a poll that finds nothing: small against the latency (10 ns)");
        src.put("cpu_scale", "this machine: its CPU time counts one for one");
        src.put("packet_bytes", "a message up to 1 MiB is one modelled packet (its costs are per message); larger "
            + "ones are packets of 1 MiB, the fabric's largest frame");
        return root;
    }

    /** Per-message times per packet: a message above {@link #PACKET_BYTES} is that many packets. */
    private static double[] perPacket(final double[] perMessage) {
        final double[] out = perMessage.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] /= Math.max(1, (FmSweep.SIZES[i] + PACKET_BYTES - 1) / PACKET_BYTES);
        }
        return out;
    }

    private static void stage(final ObjectNode stage, final int[] bounds, final Line[] lines) {
        stage.put("fixed_ns", round(lines[0].a() * 1000));
        stage.put("MBps", lines[0].b() > 0 ? round(1 / lines[0].b()) : 0);
        final ArrayNode segs = stage.putArray("segments");
        for (int j = 1; j < bounds.length; j++) {
            segs.addObject().put("from_bytes", bounds[j]).put("fixed_ns", round(lines[j].a() * 1000))
                .put("MBps", lines[j].b() > 0 ? round(1 / lines[j].b()) : 0);
        }
    }

    private static double round(final double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
