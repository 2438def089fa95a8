package org.jhpvm.fabric.internal;

import java.util.Objects;
import java.util.Optional;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.HostMemory;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;

/**
 * The emulated Myrinet: an array of NICs and, for each, its crossbar output port. Routing is the destination
 * id itself (one hop through one crossbar), so it is deterministic by construction.
 */
public final class MyrinetFabric implements Fabric {
    private final FabricConfig config;
    private final ReceivePort[] ports;
    private final MyrinetNic[] nics;
    private final FabricCapabilities capabilities;
    private final String partitionOf;
    private final Runnable onClose;
    private final InJvmHostMemory hostMemory;
    private volatile boolean closed;

    /**
     * @param config validated settings
     */
    public MyrinetFabric(final FabricConfig config) {
        this(config, null, null);
    }

    /**
     * A fabric that is one partition of a shared one: its NICs are numbered from 0 for the job that uses it.
     *
     * @param config      validated settings
     * @param partitionOf what it is a partition of (for {@link #toString()}), null if it stands alone
     * @param onClose     run once, by the first {@link #close()} (the shared fabric takes its nodes back), or null
     */
    public MyrinetFabric(final FabricConfig config, final String partitionOf, final Runnable onClose) {
        this.config = Objects.requireNonNull(config, "config");
        this.partitionOf = partitionOf;
        this.onClose = onClose;
        final int n = config.nicCount();
        this.ports = new ReceivePort[n];
        for (int i = 0; i < n; i++) {
            ports[i] = new ReceivePort(this, i, config);
        }
        this.nics = new MyrinetNic[n];
        for (int i = 0; i < n; i++) {
            nics[i] = new MyrinetNic(this, i, config, ports);
        }
        this.capabilities = capabilitiesFor(config.faultPlan());
        this.hostMemory = new InJvmHostMemory(this, n);
    }

    /**
     * @param config settings
     * @return heap bytes one NIC holds with these settings (frames, pools, rings, engine, counters), not counting
     *     the per-path frame numbers a fault plan keeps
     */
    public static long bytesPerNic(final FabricConfig config) {
        final FabricConfig one = new FabricConfig(1, config.frameBytes(), config.headerBytes(),
            config.sendRingCapacity(), config.receiveRingCapacity(), config.inlineBytes(), config.poolFrames(),
            config.spareFrames(),
            config.pumpBudget(), config.maxHoldNs(), FaultPlan.none(), config.idleSpins(), config.idleYields(),
            config.minParkNs(), config.maxParkNs(), config.completionQueueCapacity(), config.rdmaSegmentBytes(),
            ClockSettings.WALL);
        try (MyrinetFabric fabric = new MyrinetFabric(one)) {
            return fabric.nics[0].footprintBytes();
        }
    }

    @Override
    public int nicCount() {
        return nics.length;
    }

    @Override
    public int receiveRingCapacity() {
        return config.receiveRingCapacity();
    }

    @Override
    public int poolFrames() {
        return config.poolFrames();
    }

    @Override
    public int frameBytes() {
        return config.frameBytes();
    }

    @Override
    public int headerBytes() {
        return config.headerBytes();
    }

    int inlineBytes() {
        return config.inlineBytes();
    }

    /** Every NIC of the emulator lives in this JVM, one host: its segments are plain shared arenas. */
    @Override
    public Optional<HostMemory> hostMemory() {
        return Optional.of(hostMemory);
    }

    @Override
    public FabricCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public Nic nic(final int id) {
        return nics[Objects.checkIndex(id, nics.length)];
    }

    MyrinetNic nicUnchecked(final int id) {
        return nics[id];
    }

    @Override
    public NicCounters totals() {
        NicCounters sum = NicCounters.ZERO;
        for (final MyrinetNic nic : nics) {
            sum = sum.plus(nic.counters());
        }
        return sum;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    void checkOpen() {
        if (closed) {
            throw new FabricClosedException("the fabric is closed");
        }
    }

    @Override
    public void close() {
        final boolean first;
        synchronized (this) {
            first = !closed;
            closed = true;
        }
        for (final ReceivePort port : ports) {
            port.wake();
        }
        if (first) {
            hostMemory.closeAll();
        }
        if (first && onClose != null) {
            onClose.run();
        }
    }

    @Override
    public String toString() {
        return "EmulatedMyrinet{nics=" + nics.length + ", frameBytes=" + config.frameBytes() + ", headerBytes="
            + config.headerBytes() + ", rings=" + config.sendRingCapacity() + "/" + config.receiveRingCapacity()
            + ", faults=" + !config.faultPlan().isNone() + (partitionOf == null ? "" : ", " + partitionOf) + '}';
    }

    /**
     * What an emulated Myrinet under fault plan {@code plan} offers: lossless and ordered frames unless the plan
     * drops, corrupts, duplicates, takes links down or reorders; RDMA and NIC messages always (they have the NIC's
     * reliable-connection protocol, whatever the plan does to frames).
     *
     * @param plan the fault plan
     * @return the capabilities
     */
    public static FabricCapabilities capabilitiesFor(final FaultPlan plan) {
        final boolean lossless = plan.drop() == 0 && plan.corrupt() == 0 && plan.duplicate() == 0
            && plan.linkDown().isEmpty();
        return new FabricCapabilities(lossless, plan.reorder() == 0, true, true, false, true);
    }
}
