package org.jhpvm.mpi.internal;

/**
 * The state of one send or receive, whether blocking or behind a request: done or not, and when done what the
 * status says. Written by the rank's thread and by the handlers it runs inside extract, never by another thread.
 */
public abstract class Pending {
    /** Whether the operation has completed. */
    public boolean done;
    /** The sender's rank in the communicator (receives), or the destination (sends). */
    public int source;
    /** The message's tag. */
    public int tag;
    /** The MPI error class of the outcome ({@code MPI.SUCCESS} = 0 when it went well). */
    public int error;
    /** Elements of {@link #kind} received (receives) or sent (sends). */
    public long elements;
    /** The kind the message carried. */
    public Kind kind;
    /** Whether a cancel took effect. */
    public boolean cancelled;
    /** The operation's id while a message of the rendezvous names it, -1 otherwise. */
    int id = -1;
    /** Given out by the engine's {@link OpPool}, and not yet given back. */
    boolean pooled;

    /** Whether this is a receive (its status describes a message that arrived). */
    public abstract boolean isReceive();

    /** Back to a new operation's state, for what every operation has (its kind's {@code clear} does the rest). */
    void clearPending() {
        done = false;
        source = 0;
        tag = 0;
        error = 0;
        elements = 0;
        kind = null;
        cancelled = false;
        id = -1;
    }

    /**
     * Says what a rank blocked on this operation waits for (the job's deadlock and timeout reports).
     *
     * @param out where the words go
     * @return false if this kind of operation has nothing particular to say
     */
    boolean describeWait(final StringBuilder out) {
        return false;
    }
}
