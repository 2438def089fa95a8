package org.jhpvm.apps.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Aeron's own ping-pong sample ({@code io.aeron.samples.EmbeddedPingPong}: an embedded media driver, a ping and a
 * pong thread, exclusive publications over the given channel), run as a child JVM on this machine, its median
 * round trip read from the HdrHistogram it prints: the baseline that shows what FM and the fabric add over Aeron.
 */
public final class AeronPingPong {
    private AeronPingPong() {
    }

    /**
     * Runs Aeron's ping-pong sample in a child JVM (this JVM's java and options, this class path) and reads the
     * median round trip from its histogram. The child warms up with {@code warmup} round trips first; the call
     * blocks until the child ends.
     *
     * @param channel       Aeron channel for ping and pong ({@code aeron:ipc} or a UDP channel)
     * @param messages      measured round trips
     * @param warmup        round trips before them
     * @param messageLength bytes per message (Aeron's sample needs at least 32; smaller lengths are raised to 32)
     * @return median one-way latency in ns (half the median round trip)
     * @throws IOException           if the child JVM cannot be started or its output cannot be read
     * @throws InterruptedException  if this thread is interrupted while it waits for the child to exit
     * @throws IllegalStateException if the sample fails or prints no histogram
     */
    public static double oneWayNs(final String channel, final int messages, final int warmup, final int messageLength)
        throws IOException, InterruptedException {
        final List<String> cmd = ChildJvm.command();
        cmd.add("--add-exports");
        cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        cmd.add("-Daeron.sample.ping.channel=" + channel);
        cmd.add("-Daeron.sample.pong.channel=" + channel);
        cmd.add("-Daeron.sample.messages=" + messages);
        cmd.add("-Daeron.sample.warmup.messages=" + warmup);
        cmd.add("-Daeron.sample.messageLength=" + Math.max(32, messageLength));
        cmd.add("-Daeron.dir=" + Path.of(System.getProperty("java.io.tmpdir"), "jhpvm-aeron-pingpong-"
            + ProcessHandle.current().pid()));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.aeron.samples.EmbeddedPingPong");
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (var answer = p.getOutputStream()) {
            answer.write("n\n".getBytes(StandardCharsets.UTF_8)); // the sample asks whether to run again
        }
        double medianUs = Double.NaN;
        final StringBuilder text = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean histogram = false;
            while ((line = r.readLine()) != null) {
                text.append(line).append('\n');
                histogram |= line.startsWith("Histogram of RTT latencies in microseconds");
                final String[] f = line.trim().split("\\s+");
                if (histogram && Double.isNaN(medianUs) && f.length == 4 && f[1].matches("[0-9.]+")
                    && Double.parseDouble(f[1]) >= 0.5) {
                    medianUs = Double.parseDouble(f[0]);
                }
            }
        }
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("Aeron's EmbeddedPingPong did not finish in 5 minutes");
        }
        if (p.exitValue() != 0 || Double.isNaN(medianUs)) {
            throw new IllegalStateException("Aeron's EmbeddedPingPong failed (exit " + p.exitValue() + "): " + text);
        }
        return medianUs * 1_000 / 2;
    }
}
