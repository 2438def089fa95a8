package org.jhpvm.fm;

/**
 * The job could not progress: every PE waited in a communication call (or had finished its body), no message was in
 * flight, and nothing changed for {@link FmConfig#deadlockAfterNs()}; no other thread of the program was running.
 * The message is the report, one line per PE: the call it waits in, where the program made it, and what it waits
 * for. It is the cause of the {@link FmAbortException} the job ends with.
 */
public final class FmDeadlockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the deadlock failure with its report.
     *
     * @param report the first line, then one line per PE
     */
    public FmDeadlockException(final String report) {
        super(report, null, false, false);
    }

    @Override
    public String toString() {
        return getMessage();
    }
}
