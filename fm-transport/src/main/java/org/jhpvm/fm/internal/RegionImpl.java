package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;

import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fm.FmRegion;

/**
 * A region registered with an endpoint: its name, key and memory, and, where the NIC registered it too, the fabric's
 * region. Immutable but for the registration count, which only the endpoint's thread touches.
 */
final class RegionImpl implements FmRegion {
    final int handle;
    final int key;
    final Object memory;
    final MemorySegment segment;
    /** The fabric's region where the NIC does the work, else null. */
    final MemoryRegion nicRegion;
    int registrations = 1;

    RegionImpl(final int handle, final int key, final Object memory, final MemorySegment segment,
               final MemoryRegion nicRegion) {
        this.handle = handle;
        this.key = key;
        this.memory = memory;
        this.segment = segment;
        this.nicRegion = nicRegion;
    }

    @Override
    public int handle() {
        return handle;
    }

    @Override
    public int key() {
        return key;
    }

    @Override
    public Object memory() {
        return memory;
    }

    @Override
    public long lengthBytes() {
        return segment.byteSize();
    }

    boolean contains(final long offset, final long length) {
        return offset >= 0 && length >= 0 && offset <= segment.byteSize() - length;
    }

    @Override
    public String toString() {
        return "FmRegion[handle=" + handle + ", " + segment.byteSize() + " bytes]";
    }
}
