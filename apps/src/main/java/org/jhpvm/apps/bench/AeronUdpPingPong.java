package org.jhpvm.apps.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Aeron's own ping-pong between two hosts for {@code bench hosts}: each side a process with its own embedded media
 * driver (as each host of a launched job has) on one shared thread, over UDP unicast. The driver's thread either idles
 * as a launched job's does ({@code park}: backs off to 1 ms parks) or spins ({@code spin}). {@code pong IDLE BIND PORT
 * PEER PEERPORT} echoes every message until a 1-byte one (or 120 s); {@code ping IDLE BIND PORT PEER PEERPORT COUNT}
 * sends 10,000 warm-up then {@code COUNT} timed round trips of 8 bytes, one at a time, and prints {@code median_ns X}:
 * half the median round trip, as Aeron's samples report it.
 */
public final class AeronUdpPingPong {
    private static final int PING_STREAM = 1001;
    private static final int PONG_STREAM = 1002;
    private static final int WARMUP = 10_000;
    private static final long LIMIT_NS = TimeUnit.SECONDS.toNanos(120);

    private AeronUdpPingPong() {
    }

    /**
     * Runs one side.
     *
     * @param args {@code pong IDLE BIND PORT PEER PEERPORT} or {@code ping IDLE BIND PORT PEER PEERPORT COUNT}, IDLE
     *             {@code park} or {@code spin}
     */
    public static void main(final String[] args) {
        final boolean ping = args.length == 7 && args[0].equals("ping");
        if (!ping && !(args.length == 6 && args[0].equals("pong")) || !args[1].equals("park") && !args[1].equals("spin")) {
            throw new IllegalArgumentException("usage: pong park|spin BIND PORT PEER PEERPORT | ping park|spin BIND PORT "
                + "PEER PEERPORT COUNT");
        }
        final String dir = "/dev/shm/jhpvm-bench-" + args[0] + "-" + ProcessHandle.current().pid();
        final IdleStrategy idle = args[1].equals("spin") ? new BusySpinIdleStrategy()
            : new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
                .dirDeleteOnStart(true).dirDeleteOnShutdown(true).threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(idle).termBufferSparseFile(true));
             Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir));
             Subscription sub = aeron.addSubscription("aeron:udp?endpoint=" + args[2] + ":" + args[3],
                 ping ? PONG_STREAM : PING_STREAM);
             ExclusivePublication pub = aeron.addExclusivePublication("aeron:udp?endpoint=" + args[4] + ":" + args[5],
                 ping ? PING_STREAM : PONG_STREAM)) {
            if (ping) {
                System.out.println("median_ns " + ping(sub, pub, Integer.parseInt(args[6])));
            } else {
                pong(sub, pub);
            }
        }
    }

    private static double ping(final Subscription sub, final ExclusivePublication pub, final int count) {
        final long start = System.nanoTime();
        while (!pub.isConnected() || !sub.isConnected()) {
            if (System.nanoTime() - start > LIMIT_NS) {
                throw new IllegalStateException("ping: the pong side did not connect within 120 s");
            }
            Thread.onSpinWait();
        }
        final UnsafeBuffer msg = new UnsafeBuffer(new byte[8]);
        final long[] got = new long[1];
        final long[] rtt = new long[count];
        for (int k = 0; k < WARMUP + count; k++) {
            final long t0 = System.nanoTime();
            msg.putLong(0, k);
            while (pub.offer(msg, 0, 8) < 0) {
                check(start);
            }
            got[0] = -1;
            while (got[0] != k) {
                if (sub.poll((b, o, l, h) -> got[0] = b.getLong(o), 1) == 0) {
                    check(start);
                }
            }
            if (k >= WARMUP) {
                rtt[k - WARMUP] = System.nanoTime() - t0;
            }
        }
        while (pub.offer(msg, 0, 1) < 0) { // the pong side's end
            check(start);
        }
        Arrays.sort(rtt);
        return rtt[count / 2] / 2.0;
    }

    private static void pong(final Subscription sub, final ExclusivePublication pub) {
        final long start = System.nanoTime();
        final boolean[] done = {false};
        while (!done[0]) {
            if (sub.poll((b, o, l, h) -> {
                if (l == 1) {
                    done[0] = true;
                    return;
                }
                while (pub.offer(b, o, l) < 0) {
                    check(start);
                }
            }, 1) == 0) {
                check(start);
            }
        }
    }

    private static void check(final long start) {
        if (System.nanoTime() - start > LIMIT_NS) {
            throw new IllegalStateException("ping-pong gave up after 120 s");
        }
        Thread.onSpinWait();
    }
}
