package org.jhpvm.fabric;

/**
 * Thrown when a thread waiting in a NIC call is interrupted. The interrupt status is set again before it is
 * thrown.
 */
public class NicInterruptedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was interrupted
     */
    public NicInterruptedException(final String message) {
        super(message);
    }
}
