package org.jhpvm.runtime;

/**
 * A PE's program was released from {@link Jhpvm#shmem} (or refused entry) because another PE of the same run
 * failed or ended without making the same call: every PE must call {@link Jhpvm#shmem} (or {@link Jhpvm#ga}) the
 * same number of times, as every PE of an OpenSHMEM program calls {@code shmem_init}. Carries the PE that caused it
 * and, if that PE failed, its failure.
 */
public final class JhpvmAbortException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int pe;

    JhpvmAbortException(final int pe, final String message, final Throwable cause) {
        super(message, cause);
        this.pe = pe;
    }

    /** @return the PE whose failure or early end caused this */
    public int pe() {
        return pe;
    }
}
