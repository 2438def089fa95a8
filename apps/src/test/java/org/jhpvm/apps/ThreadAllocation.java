package org.jhpvm.apps;

import java.lang.management.ManagementFactory;

/** What the allocation tests read: the bytes the calling thread has allocated so far (HotSpot's counter). */
final class ThreadAllocation {
    /** Looked up once: the lookup itself allocates (hundreds of bytes a call), the counter's read does not. */
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadAllocation() {
    }

    /** @return bytes allocated by the calling thread since it started */
    static long bytes() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
