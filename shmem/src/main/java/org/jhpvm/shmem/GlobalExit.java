package org.jhpvm.shmem;

import org.jhpvm.fm.FmJobExit;

/**
 * Thrown by {@link Shmem#globalExit(int)} to unwind the calling PE; FM's job ends every PE (in every process of a
 * launched job) with the status, and {@link ShmemJob} turns it into the report's.
 */
final class GlobalExit extends FmJobExit {
    private static final long serialVersionUID = 1L;

    GlobalExit(final int pe, final int status) {
        super(pe, status);
    }
}
