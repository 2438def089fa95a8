package org.jhpvm.fabric;

import org.jhpvm.fabric.internal.MyrinetFabric;
import org.jhpvm.fabric.internal.VirtualFabric;

/**
 * The emulated Myrinet: NICs whose host interface is a send ring and a receive ring, a crossbar switch with
 * link-level back-pressure, deterministic routing, and fault injection driven by a {@link FaultPlan}. Frames
 * move when a host calls into its NIC and when a receiver drains frames that a sender was stalled on; no thread
 * of its own runs.
 */
public final class EmulatedMyrinet {
    private EmulatedMyrinet() {
    }

    /**
     * Makes an emulated Myrinet of {@code config.nicCount()} NICs, every frame, pool and ring allocated up front (see
     * {@link #bytesPerNic(FabricConfig)}); no thread is started. With a virtual clock ({@code fabric.clock=virtual})
     * it is the emulated Myrinet in virtual time instead, whose NICs keep the clock of the modelled machine (see the
     * module README), never a partition of a shared fabric. Close it when done: the waiting calls of its NICs
     * end then. Inside {@link SharedMyrinet#share} the fabric made is a partition of the shared one, as
     * {@link SharedMyrinet#partition} makes it.
     *
     * @param config validated settings
     * @return a new open fabric
     * @throws NullPointerException     if {@code config} is null
     * @throws IllegalStateException    inside {@link SharedMyrinet#share}, if the shared fabric has no room for it
     * @throws IllegalArgumentException inside {@link SharedMyrinet#share}, for frames larger than its switch carries
     */
    public static Fabric create(final FabricConfig config) {
        if (config.clock().virtual()) {
            return new VirtualFabric(config);
        }
        final SharedMyrinet shared = SharedMyrinet.current();
        return shared == null ? new MyrinetFabric(config) : shared.partition(config);
    }

    /**
     * Heap bytes one NIC holds: its frames (pool and spares), pools, rings, engine and counters. It does not
     * depend on the number of NICs. A fault plan adds a frame counter per path in use (about 20 bytes each).
     *
     * @param config settings
     * @return bytes per NIC
     */
    public static long bytesPerNic(final FabricConfig config) {
        return MyrinetFabric.bytesPerNic(config);
    }

    /**
     * What the emulated Myrinet guarantees under a fault plan: with {@link FaultPlan#none()} its frames are reliable,
     * ordered and flow-controlled; any fault switches the matching guarantee off. Its NICs always offer registered
     * memory, RDMA and NIC handlers, which their reliable-connection protocol delivers exactly once and intact under
     * any plan.
     *
     * @param plan the fault plan
     * @return the capabilities
     */
    public static FabricCapabilities capabilities(final FaultPlan plan) {
        return MyrinetFabric.capabilitiesFor(plan);
    }
}
