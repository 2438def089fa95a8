package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_REPLY;
import static org.jhpvm.shmem.MessageDescriptor.REPLY_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.REPLY_VALUE_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmOutputStream;

/**
 * Replies of host handlers (lock grants and refusals) queued by the handler and sent by whichever thread drives
 * progress next: host handlers never send (FM's rule for deadlock-free handlers), so answering cannot deadlock two
 * PEs that both wait for replies. A growable ring, struct of arrays: once grown to the PE's peak of requests in
 * flight, queueing allocates nothing. Used under the engine's ownership only.
 */
final class ReplyQueue {
    private final FastMessages fm;

    private int[] rPe = new int[64];
    private int[] rReq = new int[64];
    private int[] rStatus = new int[64];
    private long[] rValue = new long[64];
    private int rHead;
    private int rSize;
    private boolean sendingReplies;

    ReplyQueue(final FastMessages fm) {
        this.fm = fm;
    }

    /** Queues a reply to request slot {@code req} of PE {@code pe}: a status, and a value if it is OK. */
    void queue(final int pe, final int req, final int status, final long value) {
        if (rSize == rPe.length) {
            grow();
        }
        final int i = (rHead + rSize) % rPe.length;
        rPe[i] = pe;
        rReq[i] = req;
        rStatus[i] = status;
        rValue[i] = value;
        rSize++;
    }

    private void grow() {
        final int n = rPe.length;
        final int m = 2 * n;
        rPe = ring(rPe, m);
        rReq = ring(rReq, m);
        rStatus = ring(rStatus, m);
        final long[] v = new long[m];
        for (int k = 0; k < n; k++) {
            v[k] = rValue[(rHead + k) % n];
        }
        rValue = v;
        rHead = 0;
    }

    private int[] ring(final int[] a, final int m) {
        final int[] b = new int[m];
        for (int k = 0; k < a.length; k++) {
            b[k] = a[(rHead + k) % a.length];
        }
        return b;
    }

    /** Sends the queued replies (outside handlers, with no message open). @return replies sent */
    int send() {
        if (sendingReplies || rSize == 0) {
            return 0;
        }
        sendingReplies = true;
        int sent = 0;
        try {
            while (rSize > 0) {
                final int i = rHead;
                final int status = rStatus[i];
                rHead = (rHead + 1) % rPe.length;
                rSize--;
                final FmOutputStream out = fm.beginMessage(rPe[i],
                    REPLY_HEADER_BYTES + (status == STATUS_OK ? REPLY_VALUE_BYTES : 0), H_REPLY);
                out.sendInt(rReq[i]);
                out.sendInt(status);
                if (status == STATUS_OK) {
                    out.sendLong(rValue[i]);
                }
                out.endMessage();
                sent++;
            }
        } finally {
            sendingReplies = false;
        }
        return sent;
    }

    /** @return replies queued and not yet sent */
    int size() {
        return rSize;
    }
}
