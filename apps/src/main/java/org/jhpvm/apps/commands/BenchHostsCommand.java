package org.jhpvm.apps.commands;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.AeronUdpPingPong;
import org.jhpvm.apps.bench.ChildJvm;
import org.jhpvm.apps.bench.HostsJob;
import org.jhpvm.apps.bench.LinkStream;
import org.jhpvm.apps.bench.NetworkNamespaces;
import org.jhpvm.apps.bench.Stats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jhpvm bench hosts}: a job of two hosts on this machine. It makes two network namespaces joined by a veth pair
 * (root only: it says so and measures nothing where it cannot), measures the link's own TCP throughput
 * ({@link LinkStream}) and Aeron's own UDP ping-pong between them ({@link AeronUdpPingPong}), then runs a SHMEM job of
 * one process in each ({@code launch --hosts ... --spawn 'ip netns exec ...'}, {@link HostsJob}), and removes the
 * namespaces however it ends.
 */
@Command(name = "hosts", mixinStandardHelpOptions = true,
    description = {"Two hosts on this machine (two network namespaces and a veth pair; needs root): SHMEM put 1 MiB "
        + "bandwidth between them next to the link's own TCP throughput, and an 8-byte get next to Aeron's own UDP "
        + "ping-pong, all in the same run; the namespaces are removed afterwards. Exits 2, measuring nothing, where "
        + "namespaces cannot be made."})
final class BenchHostsCommand implements Callable<Integer> {
    /** Target: SHMEM's 1 MiB put bandwidth at least this times the link's TCP throughput. */
    static final double LINK_RATIO_TARGET = 0.8;
    /** Target: an 8-byte get at most this times Aeron's one-way ping-pong latency. */
    static final double AERON_RATIO_TARGET = 1.3;
    private static final int PORT = 47_301;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (keys under "
        + "\"metrics\", targets under \"targets\"; default: none).")
    private Path json;

    @Option(names = "--trials", paramLabel = "N", description = "Measured passes of each figure; medians are "
        + "reported (default: ${DEFAULT-VALUE}).")
    private int trials = 3;

    @Option(names = "--link-mb", paramLabel = "MB", description = "Megabytes each TCP stream carries "
        + "(default: ${DEFAULT-VALUE}).")
    private int linkMb = 256;

    @Option(names = "--puts", paramLabel = "N", description = "1 MiB puts per trial (default: ${DEFAULT-VALUE}).")
    private int puts = 128;

    @Option(names = "--round-trips", paramLabel = "N", description = "Gets per trial, and Aeron ping-pong round "
        + "trips (default: ${DEFAULT-VALUE}).")
    private int roundTrips = 5_000;

    @Option(names = "--link-mtu", paramLabel = "BYTES", description = "The link's MTU: 1500 as Ethernet, 9000 as "
        + "a jumbo-frame network (default: ${DEFAULT-VALUE}).")
    private int linkMtu = 1500;

    @Option(names = "--loss", paramLabel = "PERCENT", description = "Each host drops this share of the packets "
        + "reaching it over the link, at random (0.1 to 100; default: none; needs nftables' nft).")
    private Double loss;

    /** Creates the command; picocli calls this reflectively, then sets the options given. */
    BenchHostsCommand() {
    }

    @Override
    public Integer call() throws Exception {
        if (trials < 1 || linkMb < 1 || puts < 1 || roundTrips < 1) {
            throw new IllegalArgumentException("need --trials, --link-mb, --puts and --round-trips >= 1");
        }
        if (loss != null && !(loss >= 0.1 && loss <= 100)) {
            throw new IllegalArgumentException("--loss " + loss + " is outside 0.1..100 (percent)");
        }
        if (linkMtu < 68 || linkMtu > 65_535) {
            throw new IllegalArgumentException("--link-mtu " + linkMtu + " is outside 68..65535");
        }
        final NetworkNamespaces hosts;
        try {
            hosts = NetworkNamespaces.create(linkMtu);
        } catch (IllegalStateException e) {
            System.err.println("bench hosts: cannot make two hosts on this machine (network namespaces need root and "
                + "iproute2): " + e.getMessage() + "; nothing measured");
            return 2;
        }
        if (loss != null) {
            try {
                hosts.loseIncoming(loss);
            } catch (RuntimeException e) {
                hosts.close();
                throw new IllegalArgumentException("--loss " + loss + ": " + e.getMessage());
            }
        }
        final double[] link = new double[trials];
        final double ping;
        final double pingPark;
        final double pingSpin;
        final JsonNode job;
        final Thread removeOnExit = new Thread(hosts::close, "jhpvm-bench-hosts-cleanup"); // Ctrl-C, kill
        Runtime.getRuntime().addShutdownHook(removeOnExit);
        try (hosts) {
            for (int t = 0; t < trials; t++) {
                link[t] = linkMBps(hosts);
            }
            pingPark = pingNs(hosts, "park");
            pingSpin = pingNs(hosts, "spin");
            ping = Math.min(pingPark, pingSpin);
            job = shmemJob(hosts);
        } finally {
            Runtime.getRuntime().removeShutdownHook(removeOnExit);
        }
        final double linkMBps = Stats.median(link);
        final double putMBps = job.get("host_put_bw_MBps_1MiB").asDouble();
        final double getNs = job.get("host_get_latency_ns_8B").asDouble();
        final double linkRatio = putMBps / linkMBps;
        final double aeronRatio = getNs / ping;
        System.out.printf("bench hosts: 2 hosts (network namespaces %s and %s joined by a veth pair%s), one process "
            + "each; medians of %d trials%n", hosts.name(0), hosts.name(1),
            (linkMtu == 1500 ? "" : ", MTU " + linkMtu)
                + (loss == null ? "" : ", each end losing " + loss + "% of the packets reaching it"), trials);
        System.out.printf("  link TCP throughput (a Java socket stream of %d MB): %.1f MB/s (trials %s)%n", linkMb,
            linkMBps, java.util.Arrays.toString(link));
        System.out.printf("  SHMEM put 1 MiB: %.1f MB/s; host_put_bw_link_ratio_1MiB = %.2f (target >= %.1f: %s)%n",
            putMBps, linkRatio, LINK_RATIO_TARGET, linkRatio >= LINK_RATIO_TARGET ? "met" : "MISSED");
        System.out.printf("  Aeron's own UDP ping-pong, 8 B one-way (half the median round trip), each host's driver on "
            + "one thread: %.1f ns idling as a launched job's (parks up to 1 ms), %.1f ns spinning; the better one is "
            + "the baseline%n", pingPark, pingSpin);
        System.out.printf("  SHMEM get 8 B: %.1f ns; host_get_latency_aeron_ratio_8B = %.2f (target <= %.1f: %s)%n",
            getNs, aeronRatio, AERON_RATIO_TARGET, aeronRatio <= AERON_RATIO_TARGET ? "met" : "MISSED");
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "hosts");
            root.putObject("config").put("trials", trials).put("link_mb", linkMb).put("puts", puts)
                .put("round_trips", roundTrips).put("loss_percent", loss == null ? 0 : loss).put("link_mtu", linkMtu)
                .put("udp_datagram_bytes", org.jhpvm.fabric.aeron.JobEnvironment.udpDatagramBytes(
                    Integer.parseInt(System.getenv().getOrDefault("JHPVM_UDP_MTU", "0")), linkMtu))
                .put("cores", Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"));
            final ObjectNode m = root.putObject("metrics");
            m.put("host_put_bw_MBps_1MiB", putMBps);
            m.put("link_tcp_MBps", linkMBps);
            m.put("host_put_bw_link_ratio_1MiB", linkRatio);
            m.put("host_get_latency_ns_8B", getNs);
            m.put("aeron_pingpong_latency_ns_8B", ping);
            m.put("aeron_pingpong_parking_driver_latency_ns_8B", pingPark);
            m.put("aeron_pingpong_spinning_driver_latency_ns_8B", pingSpin);
            m.put("host_get_latency_aeron_ratio_8B", aeronRatio);
            final ObjectNode targets = root.putObject("targets");
            targets.put("host_put_bw_link_ratio_1MiB_min", LINK_RATIO_TARGET);
            targets.put("host_put_bw_link_ratio_1MiB_met", linkRatio >= LINK_RATIO_TARGET);
            targets.put("host_get_latency_aeron_ratio_8B_max", AERON_RATIO_TARGET);
            targets.put("host_get_latency_aeron_ratio_8B_met", aeronRatio <= AERON_RATIO_TARGET);
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    /** One TCP stream from host 0 to host 1, MB/s. */
    private double linkMBps(final NetworkNamespaces hosts) throws Exception {
        final long bytes = (long) linkMb << 20;
        final Process sink = start(hosts, 1, LinkStream.class, "sink", String.valueOf(PORT), String.valueOf(bytes));
        try {
            awaitLine(sink, "listening");
            final String out = finish(start(hosts, 0, LinkStream.class, "source", hosts.address(1),
                String.valueOf(PORT), String.valueOf(bytes)), "the TCP source");
            finish(sink, "the TCP sink");
            return Double.parseDouble(value(out, "MBps"));
        } finally {
            sink.destroyForcibly();
        }
    }

    /** Aeron's own ping-pong from host 0 to host 1, its drivers idling as {@code idle} says: one-way ns. */
    private double pingNs(final NetworkNamespaces hosts, final String idle) throws Exception {
        final String p = String.valueOf(PORT + 1);
        final String q = String.valueOf(PORT + 2);
        final Process pong = start(hosts, 1, AeronUdpPingPong.class, "pong", idle, hosts.address(1), p,
            hosts.address(0), q);
        try {
            final String out = finish(start(hosts, 0, AeronUdpPingPong.class, "ping", idle, hosts.address(0), q,
                hosts.address(1), p, String.valueOf(roundTrips)), "Aeron's ping");
            finish(pong, "Aeron's pong");
            return Double.parseDouble(value(out, "median_ns"));
        } finally {
            pong.destroyForcibly();
        }
    }

    /** The SHMEM job of one process per host, through {@code launch}. */
    private JsonNode shmemJob(final NetworkNamespaces hosts) throws Exception {
        final Path out = Files.createTempFile("jhpvm-bench-hosts", ".json");
        try {
            final int status = JhpvmCommand.execute("launch", "-n", "2", "--hosts", hosts.address(0) + ":1,"
                + hosts.address(1) + ":1", "--spawn", hosts.spawnPrefix(), "--", HostsJob.class.getName(),
                out.toString(), String.valueOf(trials), String.valueOf(puts), String.valueOf(roundTrips));
            if (status != 0 || Files.size(out) == 0) {
                throw new IllegalStateException("the SHMEM job between the hosts failed (exit " + status + ")");
            }
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toFile());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static Process start(final NetworkNamespaces hosts, final int host, final Class<?> main,
        final String... args) throws IOException {
        final List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", hosts.name(host)));
        cmd.addAll(ChildJvm.command());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        return p;
    }

    /** Reads the process's output until a line equal to {@code line} (at most 60 s). */
    private static void awaitLine(final Process p, final String line) throws Exception {
        final var reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        final var seen = new java.util.concurrent.CompletableFuture<Boolean>();
        Thread.ofPlatform().daemon(true).start(() -> {
            try {
                String l;
                while ((l = reader.readLine()) != null) {
                    if (l.equals(line)) {
                        seen.complete(true);
                        return;
                    }
                }
                seen.complete(false);
            } catch (IOException e) {
                seen.complete(false);
            }
        });
        if (!seen.get(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("a helper process ended before it said '" + line + "'");
        }
    }

    /** Waits (at most 180 s) for a helper's end and returns its output; a failure or a timeout throws. */
    private static String finish(final Process p, final String what) throws Exception {
        final var out = new java.util.concurrent.CompletableFuture<String>();
        Thread.ofPlatform().daemon(true).start(() -> {
            try {
                out.complete(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.complete("");
            }
        });
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(what + " did not finish within 180 s");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(what + " failed (exit " + p.exitValue() + ")");
        }
        return out.get(10, TimeUnit.SECONDS);
    }

    private static String value(final String out, final String key) {
        for (final String l : out.split("\n")) {
            if (l.startsWith(key + " ")) {
                return l.substring(key.length() + 1).strip();
            }
        }
        throw new IllegalStateException("no '" + key + "' in: " + out);
    }
}
