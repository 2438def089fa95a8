package org.jhpvm.runtime;

/**
 * A PE's program was released from {@link Jhpvm#shmem} (or refused entry) because another PE of the same run
 * failed or ended without making the same call: every PE must call {@link Jhpvm#shmem} (or {@link Jhpvm#ga}) the
 * same number of times, as every PE of an OpenSHMEM program calls {@code shmem_init}. Carries the PE that caused it
 * and, if that PE failed, its failure.
 */
public final class JhpvmAbortException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The PE whose failure or early end released the caller. */
    private final int pe;

    /**
     * @param pe      the PE that caused it
     * @param message what happened, naming that PE
     * @param cause   that PE's failure, or null if it ended without making the call
     */
    JhpvmAbortException(final int pe, final String message, final Throwable cause) {
        super(message, cause);
        this.pe = pe;
    }

    /**
     * The PE that caused the release.
     *
     * @return the PE whose failure or early end caused this
     */
    public int pe() {
        return pe;
    }
}
