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
        if (ending(fabric)) {
            check(call, nic, fabric, 0);
        }
    }

    /**
     * Whether a wait must end (its thread was interrupted, or its fabric closed): the look of a wait loop, which
     * builds no message. {@link #check} then says why.
     *
     * @param fabric the NIC's fabric
     * @return true if the wait must end
     */
    static boolean ending(final Fabric fabric) {
        return Thread.currentThread().isInterrupted() || fabric.isClosed();
    }

    /**
     * As {@link #check(String, int, Fabric)}, with the virtual time the wait looked at in the message.
     *
     * @param call   the call that waits
     * @param nic    the NIC's id
     * @param fabric its fabric
     * @param atPs   the virtual time, picoseconds (0: none)
     */
    static void check(final String call, final int nic, final Fabric fabric, final long atPs) {
        final String what = atPs == 0 ? call : call + " at virtual time " + atPs / 1000 + " ns";
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new NicInterruptedException(what + " on NIC " + nic + " interrupted");
        }
        if (fabric.isClosed()) {
            throw new FabricClosedException(what + " on NIC " + nic + " ended: the fabric was closed");
        }
    }
}
