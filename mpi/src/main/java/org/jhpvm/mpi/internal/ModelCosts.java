package org.jhpvm.mpi.internal;

import org.jhpvm.fm.FmClock;

/**
 * What MPI-FM's own work costs the modelled machine in virtual time ({@code fabric.clock=virtual}): the machine file's
 * {@code layers.mpi.send_ns} per message sent, and {@code layers.mpi.recv_ns} plus the copy into the user's buffer at
 * {@code layers.mpi.recv_MBps} per message received, charged to the rank's clock where the work is done. On the wall
 * clock, and on machines that set none of them, nothing is charged (the work takes its own time).
 */
final class ModelCosts {
    /** No costs: the wall clock. */
    static final ModelCosts NONE = new ModelCosts(0, 0, 0);

    private final long sendNs;
    private final long recvNs;
    private final double recvNsPerByte;

    private ModelCosts(final long sendNs, final long recvNs, final double recvNsPerByte) {
        this.sendNs = sendNs;
        this.recvNs = recvNs;
        this.recvNsPerByte = recvNsPerByte;
    }

    /** @return the costs of the calling rank's machine: {@link #NONE} unless its clock is virtual and they are set */
    static ModelCosts ofThisThread() {
        if (!FmClock.isVirtual()) {
            return NONE;
        }
        final double rate = FmClock.cost("mpi.recv_MBps");
        final ModelCosts c = new ModelCosts(Math.round(FmClock.cost("mpi.send_ns")),
            Math.round(FmClock.cost("mpi.recv_ns")), rate > 0 ? 1000.0 / rate : 0);
        return c.sendNs == 0 && c.recvNs == 0 && c.recvNsPerByte == 0 ? NONE : c;
    }

    /** A message is sent. */
    void sent() {
        if (this != NONE) {
            FmClock.charge(sendNs);
        }
    }

    /** A message of {@code bytes} is received into its buffer. */
    void received(final long bytes) {
        if (this != NONE) {
            FmClock.charge(recvNs + Math.round(bytes * recvNsPerByte));
        }
    }
}
