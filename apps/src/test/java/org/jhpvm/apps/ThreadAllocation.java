package org.jhpvm.apps;

import java.lang.management.ManagementFactory;

/** What the allocation tests read: the bytes the calling thread has allocated so far (HotSpot's counter). */
final class ThreadAllocation {
    private ThreadAllocation() {
    }

    /** @return bytes allocated by the calling thread since it started */
    static long bytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
            .getCurrentThreadAllocatedBytes();
    }
}
