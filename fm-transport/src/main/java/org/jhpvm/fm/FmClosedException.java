package org.jhpvm.fm;

/** A call on an endpoint that has been closed. */
public final class FmClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a call on PE {@code pe}'s closed endpoint; the message names the PE.
     *
     * @param pe the endpoint's PE
     */
    public FmClosedException(final int pe) {
        super("FM endpoint of PE " + pe + " is closed");
    }
}
