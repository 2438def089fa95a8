package org.jhpvm.fabric.internal;

import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fabric.NicInterruptedException;

/** How a NIC's waiting call ends early: on its thread's interrupt, or on its fabric's close. */
final class WaitEnds {
    private WaitEnds() {
    }

    /**
     * Ends a wait if its thread was interrupted (the interrupt is kept) or the fabric was closed.
     *
     * @param call   the call that waits, for the message
     * @param nic    the NIC's id
     * @param fabric its fabric
     * @throws NicInterruptedException if the thread was interrupted
     * @throws FabricClosedException   if the fabric was closed
     */
    static void check(final String call, final int nic, final Fabric fabric) {
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new NicInterruptedException(call + " on NIC " + nic + " interrupted");
        }
        if (fabric.isClosed()) {
            throw new FabricClosedException(call + " on NIC " + nic + " ended: the fabric was closed");
        }
    }
}
