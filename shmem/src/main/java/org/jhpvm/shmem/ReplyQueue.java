package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_REPLY;
import static org.jhpvm.shmem.MessageDescriptor.REPLY_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.REPLY_VALUE_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmOutputStream;

/**
 * Replies (get data, fetched atomic values, quiet answers, lock grants) queued by handlers and sent by whichever
 * thread drives progress next: handlers never send (FM's rule for deadlock-free handlers), so answering cannot
 * deadlock two PEs that both wait for replies. A growable ring, struct of arrays: once grown to the PE's peak of
 * requests in flight, queueing allocates nothing. Used under the engine's ownership only.
 */
final class ReplyQueue {
    private final FastMessages fm;

    private int[] rPe = new int[64];
    private int[] rReq = new int[64];
    private int[] rStatus = new int[64];
    private SymmetricArray[] rSym = new SymmetricArray[64];
    private int[] rIndex = new int[64];
    private int[] rStride = new int[64];
    private int[] rCount = new int[64];
    private int[] rBlock = new int[64];
    private long[] rValue = new long[64];
    private int rHead;
    private int rSize;
    private boolean sendingReplies;

    ReplyQueue(final FastMessages fm) {
        this.fm = fm;
    }

    /** Queues a reply to request slot {@code req} of PE {@code pe}: elements of {@code s}, or {@code value}. */
    void queue(final int pe, final int req, final int status, final SymmetricArray s, final int index,
        final int stride, final int count, final long value) {
        queue(pe, req, status, s, index, stride, count, 1, value);
    }

    void queue(final int pe, final int req, final int status, final SymmetricArray s, final int index,
        final int stride, final int count, final int block, final long value) {
        if (rSize == rPe.length) {
            grow();
        }
        final int i = (rHead + rSize) % rPe.length;
        rPe[i] = pe;
        rReq[i] = req;
        rStatus[i] = status;
        rSym[i] = s;
        rIndex[i] = index;
        rStride[i] = stride;
        rCount[i] = count;
        rBlock[i] = block;
        rValue[i] = value;
        rSize++;
    }

    private void grow() {
        final int n = rPe.length;
        final int m = 2 * n;
        rPe = ring(rPe, m);
        rReq = ring(rReq, m);
        rStatus = ring(rStatus, m);
        rIndex = ring(rIndex, m);
        rStride = ring(rStride, m);
        rCount = ring(rCount, m);
        rBlock = ring(rBlock, m);
        final long[] v = new long[m];
        final SymmetricArray[] s = new SymmetricArray[m];
        for (int k = 0; k < n; k++) {
            v[k] = rValue[(rHead + k) % n];
            s[k] = rSym[(rHead + k) % n];
        }
        rValue = v;
        rSym = s;
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
                final int pe = rPe[i];
                final int req = rReq[i];
                final int status = rStatus[i];
                final SymmetricArray s = rSym[i];
                final int index = rIndex[i];
                final int stride = rStride[i];
                final int count = rCount[i];
                final int block = rBlock[i];
                final long value = rValue[i];
                rSym[i] = null;
                rHead = (rHead + 1) % rPe.length;
                rSize--;
                // The object may have been freed since the request: answer with what is there now (a program that
                // frees an object under a get is erroneous in OpenSHMEM too).
                final boolean data = status == STATUS_OK && s != null;
                final FmOutputStream out = fm.beginMessage(pe,
                    REPLY_HEADER_BYTES + (data ? count * block * s.kind.bytes : REPLY_VALUE_BYTES), H_REPLY);
                out.sendInt(req);
                out.sendInt(status);
                if (data) {
                    s.kind.sendBlocks(out, s.array, index, stride, count, block);
                } else if (status == STATUS_OK) {
                    out.sendLong(value);
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
