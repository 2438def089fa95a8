package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;

import org.jhpvm.fabric.HostMemory;
import org.jhpvm.fm.FmHostMemory;

/** The fabric's host memory as one PE sees it: PE numbers are NIC numbers, and this PE creates on its own NIC. */
final class HostMemoryView implements FmHostMemory {
    private final HostMemory memory;
    private final int pe;

    HostMemoryView(final HostMemory memory, final int pe) {
        this.memory = memory;
        this.pe = pe;
    }

    @Override
    public boolean reaches(final int target) {
        return memory.reaches(target);
    }

    @Override
    public MemorySegment create(final int name, final long bytes) {
        return memory.create(pe, name, bytes);
    }

    @Override
    public MemorySegment map(final int target, final int name) {
        return memory.map(target, name);
    }

    @Override
    public void unmap(final int target, final int name) {
        memory.unmap(target, name);
    }

    @Override
    public void written(final int target) {
        memory.written(target);
    }

    @Override
    public void remove(final int name) {
        memory.remove(pe, name);
    }
}
