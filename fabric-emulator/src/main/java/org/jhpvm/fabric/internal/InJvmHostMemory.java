package org.jhpvm.fabric.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jhpvm.fabric.HostMemorySegments;

/**
 * The host memory of a fabric whose NICs all live in this JVM: a segment is off-heap memory of a shared
 * {@link Arena}, and "mapping" another NIC's segment answers the same memory.
 */
final class InJvmHostMemory extends HostMemorySegments {
    /** Segments start on a cache line, as a page-aligned mapping does at least. */
    private static final long ALIGNMENT = 64;
    private final int nics;
    /** The fabric whose NICs a store wakes ({@link #written}). */
    private final MyrinetFabric fabric;

    InJvmHostMemory(final MyrinetFabric fabric, final int nics) {
        this.fabric = fabric;
        this.nics = nics;
    }

    /** A store into a NIC's segment wakes its host as an RDMA write into its memory does. */
    @Override
    public void written(final int nic) {
        fabric.nicUnchecked(nic).memoryWritten();
    }

    @Override
    public boolean reaches(final int nic) {
        return nic >= 0 && nic < nics;
    }

    @Override
    protected boolean isLocal(final int nic) {
        return reaches(nic);
    }

    @Override
    protected MemorySegment allocate(final int nic, final int name, final long bytes, final Arena arena) {
        return arena.allocate(bytes, ALIGNMENT); // zeroed
    }

    @Override
    protected MemorySegment open(final int nic, final int name, final Arena arena) {
        throw new IllegalStateException("NIC " + nic + " has no host memory segment " + name);
    }
}
