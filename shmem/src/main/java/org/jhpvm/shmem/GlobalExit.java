package org.jhpvm.shmem;

/** Thrown by {@link Shmem#globalExit(int)} to unwind the calling PE; the launcher turns it into the job's status. */
final class GlobalExit extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int status;

    GlobalExit(final int pe, final int status) {
        super("PE " + pe + " called globalExit(" + status + ")", null, false, false);
        this.status = status;
    }
}
