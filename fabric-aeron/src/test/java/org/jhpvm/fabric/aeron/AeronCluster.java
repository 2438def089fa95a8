package org.jhpvm.fabric.aeron;

import java.net.DatagramSocket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;

/**
 * Test helper: the processes of a job played by several {@link AeronFabric}s in one JVM (one per rank, all on this
 * host), joined in parallel, seen through one {@link Fabric} whose NIC i is rank i / pesPerProcess's NIC i. Every
 * frame between ranks crosses Aeron (IPC, or UDP on loopback).
 */
public final class AeronCluster implements Fabric {
    private static final AtomicInteger JOBS = new AtomicInteger();

    private final AeronFabric[] ranks;
    private final int pesPerProcess;

    private AeronCluster(final AeronFabric[] ranks, final int pesPerProcess) {
        this.ranks = ranks;
        this.pesPerProcess = pesPerProcess;
    }

    /**
     * @param processes     ranks
     * @param pesPerProcess NICs per rank
     * @param udp           UDP on loopback instead of IPC
     * @param config        frame size, header area, ring
     * @return the joined cluster
     */
    public static AeronCluster start(final int processes, final int pesPerProcess, final boolean udp,
                                     final FabricConfig config) {
        return start(processes, pesPerProcess, udp, config, "0123456789abcdef-secret", 1_500);
    }

    /** As {@link #start(int, int, boolean, FabricConfig)} with a given secret and heartbeat timeout. */
    public static AeronCluster start(final int processes, final int pesPerProcess, final boolean udp,
                                     final FabricConfig config, final String secret, final long heartbeatMs) {
        final List<JobEnvironment> envs = environments(processes, pesPerProcess, udp, secret, heartbeatMs);
        final AeronFabric[] fabrics = new AeronFabric[processes];
        final ExecutorService pool = Executors.newFixedThreadPool(processes);
        try {
            final List<Future<AeronFabric>> joins = new ArrayList<>();
            for (final JobEnvironment env : envs) {
                joins.add(pool.submit(() -> AeronFabric.join(env, config)));
            }
            for (int r = 0; r < processes; r++) {
                fabrics[r] = joins.get(r).get(60, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            for (int r = processes - 1; r >= 0; r--) {
                if (fabrics[r] != null) {
                    fabrics[r].close();
                }
            }
            throw new IllegalStateException("cluster did not join: " + e, e);
        } finally {
            pool.shutdownNow();
        }
        return new AeronCluster(fabrics, pesPerProcess);
    }

    /** The environments of a job of this shape on this host (unique job id, Aeron directory and ports). */
    public static List<JobEnvironment> environments(final int processes, final int pesPerProcess, final boolean udp,
                                                    final String secret, final long heartbeatMs) {
        final String job = "test" + ProcessHandle.current().pid() + "-" + JOBS.incrementAndGet();
        final int port = udp ? freePortRun(processes) : JobEnvironment.DEFAULT_PORT;
        final List<String> hosts = JobEnvironment.parseHosts("localhost:" + processes, processes);
        final List<JobEnvironment> envs = new ArrayList<>();
        for (int r = 0; r < processes; r++) {
            envs.add(new JobEnvironment(r, processes, pesPerProcess, hosts, port,
                secret.getBytes(StandardCharsets.UTF_8), job, udp, JobEnvironment.defaultAeronDir(job, 0),
                heartbeatMs, 20_000));
        }
        return envs;
    }

    /** @return a port p such that p .. p+n-1 were free for UDP a moment ago */
    static int freePortRun(final int n) {
        for (int attempt = 0; attempt < 100; attempt++) {
            final int base = 41_000 + (int) (Math.random() * 20_000);
            boolean free = true;
            for (int i = 0; i < n && free; i++) {
                try (DatagramSocket s = new DatagramSocket(base + i)) {
                    free = s.getLocalPort() == base + i;
                } catch (SocketException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no free UDP ports");
    }

    /** @param r a rank @return its fabric */
    public AeronFabric rank(final int r) {
        return ranks[r];
    }

    @Override
    public int nicCount() {
        return ranks[0].nicCount();
    }

    @Override
    public int frameBytes() {
        return ranks[0].frameBytes();
    }

    @Override
    public int headerBytes() {
        return ranks[0].headerBytes();
    }

    @Override
    public int receiveRingCapacity() {
        return ranks[0].receiveRingCapacity();
    }

    @Override
    public int poolFrames() {
        return ranks[0].poolFrames();
    }

    @Override
    public FabricCapabilities capabilities() {
        return ranks[0].capabilities();
    }

    @Override
    public Nic nic(final int id) {
        if (id < 0 || id >= nicCount()) {
            throw new IndexOutOfBoundsException("NIC " + id);
        }
        return ranks[id / pesPerProcess].nic(id);
    }

    @Override
    public NicCounters totals() {
        NicCounters t = NicCounters.ZERO;
        for (final AeronFabric f : ranks) {
            t = t.plus(f.totals());
        }
        return t;
    }

    @Override
    public boolean isClosed() {
        return ranks[0].isClosed();
    }

    /** Closes every rank, the driver's owner (rank 0) last. */
    @Override
    public void close() {
        for (int r = ranks.length - 1; r >= 0; r--) {
            ranks[r].close();
        }
    }
}
