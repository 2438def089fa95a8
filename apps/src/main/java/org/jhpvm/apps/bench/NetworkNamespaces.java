package org.jhpvm.apps.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Two "hosts" on this machine for {@code bench hosts}: two network namespaces joined by a veth pair on a private
 * {@code 10.214.N.0/24}, made with iproute2's {@code ip} (root only) and removed by {@link #close()} (removing a
 * namespace takes its end of the pair with it); {@link #loseIncoming} makes the link lose packets. The names carry
 * this process's id, so runs side by side do not meet; traffic goes only to the two addresses assigned here. Every
 * {@code ip} and {@code nft} call is bounded to 10 s.
 */
public final class NetworkNamespaces implements AutoCloseable {
    /** A namespace this class makes, with the id of the process that made it. */
    private static final Pattern OURS = Pattern.compile("^jhb(\\d+)-[01]\\b");
    private final String prefix;
    private final String subnet;
    private final List<String> created = new ArrayList<>();

    private NetworkNamespaces() {
        final long pid = ProcessHandle.current().pid();
        this.prefix = "jhb" + pid + "-";
        this.subnet = "10.214." + (pid % 250 + 1) + ".";
    }

    /**
     * Makes the two namespaces and their link, an Ethernet of 1,500-byte packets.
     *
     * @return the hosts
     * @throws IllegalStateException naming what failed (not root, no iproute2, ...), with nothing left behind
     */
    public static NetworkNamespaces create() {
        return create(1500);
    }

    /**
     * Makes the two namespaces and their link.
     *
     * @param mtu the link's MTU (1500 as Ethernet, 9000 as a jumbo-frame network), 68 .. 65535
     * @return the hosts
     * @throws IllegalArgumentException if the MTU is outside that range
     * @throws IllegalStateException    naming what failed (not root, no iproute2, ...), with nothing left behind
     */
    public static NetworkNamespaces create(final int mtu) {
        if (mtu < 68 || mtu > 65_535) {
            throw new IllegalArgumentException("link MTU " + mtu + " is outside 68..65535");
        }
        final NetworkNamespaces n = new NetworkNamespaces();
        try {
            n.make(mtu);
            return n;
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
    }

    private void make(final int mtu) {
        sweepStale();
        ip("netns", "del", name(0)); // left by an earlier run of this process id, if any
        ip("netns", "del", name(1));
        for (int h = 0; h < 2; h++) {
            require(ip("netns", "add", name(h)));
            created.add(name(h));
        }
        require(ip("link", "add", device(0), "type", "veth", "peer", "name", device(1)));
        for (int h = 0; h < 2; h++) {
            final String dev = device(h);
            require(ip("link", "set", dev, "netns", name(h)));
            require(ip("-n", name(h), "addr", "add", address(h) + "/24", "dev", dev));
            require(ip("-n", name(h), "link", "set", dev, "mtu", String.valueOf(mtu), "up"));
            require(ip("-n", name(h), "link", "set", "lo", "up"));
        }
    }

    /**
     * A namespace's name.
     *
     * @param host 0 or 1
     * @return its name, for {@code ip netns exec}
     */
    public String name(final int host) {
        return prefix + host;
    }

    /**
     * A host's address on the link.
     *
     * @param host 0 or 1
     * @return its IPv4 address
     */
    public String address(final int host) {
        return subnet + (host + 1);
    }

    /**
     * The command prefix that runs a command in a host, as {@code launch --spawn} takes it ({@code {index}} is the
     * host's index).
     *
     * @return {@code ip netns exec PREFIX{index}}
     */
    public String spawnPrefix() {
        return "ip netns exec " + prefix + "{index}";
    }

    /** Removes what was made; idempotent. */
    @Override
    public synchronized void close() {
        for (final String n : created) {
            ip("netns", "del", n);
        }
        created.clear();
    }

    /** Removes the namespaces of earlier runs whose process is gone (killed before it could remove them). */
    private static void sweepStale() {
        final Run list = run("ip", "netns", "list");
        for (final String line : list.output().split("\n")) {
            final var m = OURS.matcher(line.strip());
            if (m.find() && ProcessHandle.of(Long.parseLong(m.group(1))).map(h -> !h.isAlive()).orElse(true)) {
                ip("netns", "del", m.group().strip());
            }
        }
    }

    private static void require(final String failure) {
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /**
     * Makes each host drop a share of the packets arriving on its end of the link, at random: an nftables rule on the
     * device's ingress hook, which sees every packet (each fragment of a datagram too) before IP joins them. The
     * kernel here has no {@code tc netem}; {@code nft} (Debian's {@code nftables}) is needed.
     *
     * @param percent the share dropped, 0.1 .. 100
     * @throws IllegalArgumentException if the share is outside that range
     * @throws IllegalStateException    naming what failed (no {@code nft}, no nftables in the kernel), the link
     *                                  unchanged
     */
    public void loseIncoming(final double percent) {
        if (!(percent >= 0.1 && percent <= 100)) {
            throw new IllegalArgumentException("loss " + percent + "% is outside 0.1..100");
        }
        final long perMille = Math.round(percent * 10);
        for (int h = 0; h < 2; h++) {
            final Run r = run("ip", "netns", "exec", name(h), "nft", "add table netdev jhloss; add chain netdev "
                + "jhloss in { type filter hook ingress device \"" + device(h) + "\" priority 0; policy accept; }; "
                + "add rule netdev jhloss in numgen random mod 1000 < " + perMille + " drop");
            if (r.status() != 0) {
                if (h == 1) {
                    run("ip", "netns", "exec", name(0), "nft", "delete table netdev jhloss");
                }
                throw new IllegalStateException(r.output());
            }
        }
    }

    /** The veth end in a host. */
    private static String device(final int host) {
        return "jhb" + ProcessHandle.current().pid() + (host == 0 ? "a" : "b");
    }

    /** Runs {@code ip args}; returns null if it succeeded, else what it printed and its status. */
    static String ip(final String... args) {
        final Run r = run("ip", args);
        return r.status() == 0 ? null : r.output();
    }

    /** How an {@code ip} call ended: its status (non-zero also when it could not run) and its output or failure. */
    private record Run(int status, String output) {
    }

    private static Run run(final String tool, final String... args) {
        final List<String> cmd = new ArrayList<>();
        cmd.add(tool);
        cmd.addAll(List.of(args));
        try {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Run(-1, String.join(" ", cmd) + " did not finish in 10 s");
            }
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 ? new Run(0, out)
                : new Run(p.exitValue(), String.join(" ", cmd) + ": exit " + p.exitValue() + ": " + out);
        } catch (IOException e) {
            return new Run(-1, "cannot run " + tool + " (iproute2): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Run(-1, "interrupted");
        }
    }
}
