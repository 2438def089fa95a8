package org.jhpvm.fabric;

/**
 * Thrown when a thread waiting in a NIC call is interrupted. The interrupt status is set again before it is
 * thrown.
 */
public class NicInterruptedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception; it does not set the interrupt status itself, the NIC that throws it leaves it set.
     *
     * @param message what was interrupted
     */
    public NicInterruptedException(final String message) {
        super(message);
    }
}
