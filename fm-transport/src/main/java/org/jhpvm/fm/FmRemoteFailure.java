package org.jhpvm.fm;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A job of several processes failed in another process: a PE there failed (its process says why), or a process was
 * lost. The cause of the {@link FmAbortException} this process's part of the job ends with. When the failure is
 * {@linkplain #reportedElsewhere() reported elsewhere}, this process ends with a failure status and prints nothing
 * more, so that the job's output holds each failure once.
 */
public final class FmRemoteFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The failed PE; part of the serialized form. */
    private final int pe;
    /** Whether another process reports it; part of the serialized form. */
    private final boolean reportedElsewhere;

    /**
     * Makes the failure as another process told it (or as this process found a lost one).
     *
     * @param pe                the failed PE (the first PE of a lost process)
     * @param message           what happened, as the other process said it
     * @param reportedElsewhere whether another process reports it to the user
     */
    public FmRemoteFailure(final int pe, final String message, final boolean reportedElsewhere) {
        super(message);
        this.pe = pe;
        this.reportedElsewhere = reportedElsewhere;
    }

    /**
     * The PE that failed.
     *
     * @return the failed PE (the first PE of a lost process)
     */
    public int pe() {
        return pe;
    }

    /**
     * Whether another process of the job reports this failure to the user.
     *
     * @return true if another process reports it
     */
    public boolean reportedElsewhere() {
        return reportedElsewhere;
    }

    /**
     * Whether {@code t} or one of its causes is a failure that another process of the job reports.
     *
     * @param t a failure, or null
     * @return true if this process need not print it
     */
    public static boolean isReportedElsewhere(final Throwable t) {
        final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof FmRemoteFailure r) {
                return r.reportedElsewhere;
            }
        }
        return false;
    }
}
