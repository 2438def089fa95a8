package org.jhpvm.fabric;

/**
 * Thrown by a NIC call on a fabric that has been closed, including calls that were blocked when it closed.
 */
public class FabricClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception with a one-line message for the user; a waiting call that ends names itself and its NIC.
     *
     * @param message what was interrupted
     */
    public FabricClosedException(final String message) {
        super(message);
    }
}
