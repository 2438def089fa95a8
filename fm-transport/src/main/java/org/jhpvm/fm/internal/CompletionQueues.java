package org.jhpvm.fm.internal;

import org.jhpvm.fabric.Completion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.QueuePair;
import org.jhpvm.fabric.WorkDescriptor;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmCompletion;

/**
 * An endpoint's completion queues ({@link FastMessages#openQueue()}). Queue 0 is the endpoint's own, kept by
 * {@link NicOffload}; each other one is, where the NIC does the work, a queue pair of the NIC (its requests are
 * posted there and complete on its ring), and elsewhere a log that FM's answers fill ({@link MessageOffload}), with a
 * count of its requests not yet answered. The endpoint's thread only; nothing is allocated per request.
 */
final class CompletionQueues {
    private final int pe;
    private final Nic nic;
    private final boolean offload;
    private final boolean[] open = new boolean[FastMessages.MAX_QUEUES];
    private final QueuePair[] pairs = new QueuePair[FastMessages.MAX_QUEUES];
    private final CompletionLog[] logs = new CompletionLog[FastMessages.MAX_QUEUES];
    private final int[] inFlight = new int[FastMessages.MAX_QUEUES];
    private final Completion nicCompletion = new Completion();

    CompletionQueues(final int pe, final Nic nic, final boolean offload, final CompletionLog own) {
        this.pe = pe;
        this.nic = nic;
        this.offload = offload;
        this.open[0] = true;
        this.logs[0] = own;
    }

    int open() {
        for (int q = 1; q < open.length; q++) {
            if (!open[q]) {
                if (offload) {
                    pairs[q] = nic.openQueuePair();
                }
                if (logs[q] == null) {
                    logs[q] = new CompletionLog();
                }
                open[q] = true;
                return q;
            }
        }
        throw new IllegalStateException("PE " + pe + " has " + FastMessages.MAX_QUEUES + " completion queues open, "
            + "the most an endpoint may");
    }

    /** Checks {@code q} is an open queue (0 always is). */
    void check(final int q) {
        if (q < 0 || q >= open.length || !open[q]) {
            throw new IllegalArgumentException("queue " + q + " is not an open completion queue of PE " + pe);
        }
    }

    void close(final int q) {
        if (q == 0) {
            throw new IllegalArgumentException("queue 0 is the endpoint's own: it cannot be closed");
        }
        check(q);
        final int waiting = offload ? pairs[q].completionQueue().size() : 0;
        if (inFlight[q] > 0 || !logs[q].isEmpty() || waiting > 0) {
            throw new IllegalStateException("queue " + q + " of PE " + pe + " has requests not yet complete ("
                + inFlight[q] + ") or completions not yet taken: take them before closing it");
        }
        if (offload) {
            pairs[q].close();
            pairs[q] = null;
        }
        open[q] = false;
    }

    /** The log of queue {@code q}: its completions FM made (without offload) or took early from the NIC. */
    CompletionLog log(final int q) {
        return logs[q];
    }

    /** A request of queue {@code q} went out in FM's messages; its answer will complete it. */
    void sent(final int q) {
        inFlight[q]++;
    }

    /** The answer to a request of queue {@code q} came. */
    void answered(final int q) {
        inFlight[q]--;
    }

    /** Posts on queue {@code q}'s queue pair (q above 0, with offload); a full ring is emptied into its log first. */
    void post(final int q, final WorkDescriptor descriptor) {
        final QueuePair pair = pairs[q];
        if (!pair.post(descriptor)) {
            while (pair.completionQueue().poll(nicCompletion)) {
                logs[q].add(nicCompletion.op(), nicCompletion.status(), nicCompletion.lengthBytes(),
                    nicCompletion.context());
            }
            if (!pair.post(descriptor)) {
                throw new IllegalStateException("the NIC refused a post with an empty completion queue");
            }
        }
    }

    /** Takes queue {@code q}'s oldest completion (q above 0). */
    boolean poll(final int q, final FmCompletion into) {
        if (logs[q].poll(into)) {
            return true;
        }
        if (offload && pairs[q].completionQueue().poll(nicCompletion)) {
            into.set(nicCompletion.op(), nicCompletion.status(), nicCompletion.lengthBytes(),
                nicCompletion.context());
            return true;
        }
        return false;
    }
}
