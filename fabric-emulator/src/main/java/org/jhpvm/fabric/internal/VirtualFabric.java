package org.jhpvm.fabric.internal;

import java.util.Objects;

import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fabric.timing.TimingModel;

/**
 * The emulated Myrinet in virtual time ({@code fabric.clock=virtual}): every NIC keeps the clock of the modelled
 * machine, and a frame reaches its receiver when the {@link TimingModel} says, whatever this machine's speed. Frames
 * are copied into a receive slot of the destination at the send and delivered in the order of their virtual
 * arrival; the fabric never reorders or back-pressures a frame (a receiver that falls behind makes its frames wait
 * in the model, at its switch port, not in wall time), and loses or corrupts one only as its fault plan says (drops
 * and corruptions; the other faults are refused). It offers what an emulated Myrinet offers under such a plan,
 * without RDMA or NIC handlers (the layers above carry those in frames, as over Aeron).
 */
public final class VirtualFabric implements Fabric {
    private final FabricConfig config;
    private final TimingModel model;
    private final VirtualClocks clocks;
    private final VirtualNic[] nics;
    private final FabricCapabilities capabilities;
    private volatile boolean closed;

    /**
     * @param config validated settings, their clock virtual
     * @throws IllegalArgumentException if the settings ask for faults other than drops and corruptions, or name a
     *                                  machine that cannot be read
     */
    public VirtualFabric(final FabricConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        final FaultPlan plan = config.faultPlan();
        if (plan.duplicate() > 0 || plan.reorder() > 0 || plan.delay() > 0 || plan.stall() > 0
            || !plan.linkDown().isEmpty()) {
            throw new IllegalArgumentException("fabric.clock=virtual models drops and corruptions only "
                + "(fabric.faults.drop, fabric.faults.corrupt): leave duplicates, reordering, delays, stalls and "
                + "link-down windows out");
        }
        this.capabilities = new FabricCapabilities(plan.drop() == 0 && plan.corrupt() == 0, true, true, false, true,
            false);
        this.model = new TimingModel(config.clock().model());
        this.clocks = new VirtualClocks(config.nicCount(), model.lookaheadPs(),
            config.clock().parkLooks(config.nicCount()));
        this.nics = new VirtualNic[config.nicCount()];
        for (int i = 0; i < nics.length; i++) {
            nics[i] = new VirtualNic(this, i, config, model, clocks, config.clock().measured());
        }
    }

    /** @return the timing model the NICs keep time by */
    public TimingModel model() {
        return model;
    }

    /**
     * A NIC's virtual clock as its host last left it.
     *
     * @param nic the NIC
     * @return picoseconds
     */
    public long clockPs(final int nic) {
        return nics[Objects.checkIndex(nic, nics.length)].clockPs();
    }

    @Override
    public int nicCount() {
        return nics.length;
    }

    @Override
    public int frameBytes() {
        return config.frameBytes();
    }

    @Override
    public int headerBytes() {
        return config.headerBytes();
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
    public FabricCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean virtualClock() {
        return true;
    }

    /** Gives out a NIC; it takes part in virtual time from now, hosted by the calling thread until another calls it. */
    @Override
    public Nic nic(final int id) {
        final VirtualNic nic = nics[Objects.checkIndex(id, nics.length)];
        if (clocks.hostOf(id) == null) { // the first time only: later calls just hand the NIC out
            final long others = clocks.othersMin(id, true, new long[nics.length + 1]);
            clocks.join(id, Thread.currentThread(), others == VirtualClocks.GONE ? 0 : others);
        }
        return nic;
    }

    VirtualNic nicUnchecked(final int id) {
        return nics[id];
    }

    @Override
    public NicCounters totals() {
        NicCounters sum = NicCounters.ZERO;
        for (final VirtualNic nic : nics) {
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
        closed = true;
        for (int i = 0; i < nics.length; i++) {
            clocks.leave(i);
        }
    }

    @Override
    public String toString() {
        return "VirtualFabric{nics=" + nics.length + ", machine=" + model.machine().name() + ", switches="
            + model.machine().switches() + ", frameBytes=" + config.frameBytes() + '}';
    }
}
