package org.jhpvm.fm.internal;

import java.util.Arrays;

import org.jhpvm.fm.FmCompletion;

/**
 * An endpoint's completions not yet taken: those the NIC's queue handed over early (to make room for a post), and,
 * without NIC offload, those FM's messages brought. A ring that grows when full (by doubling, so a program that keeps
 * many requests outstanding allocates a few times, not per request), the endpoint's thread only.
 */
final class CompletionLog {
    private int[] op = new int[64];
    private int[] status = new int[64];
    private long[] length = new long[64];
    private long[] context = new long[64];
    private int head;
    private int size;

    void add(final int requestOp, final int requestStatus, final long lengthBytes, final long requestContext) {
        if (size == op.length) {
            grow();
        }
        final int i = (head + size) & (op.length - 1);
        op[i] = requestOp;
        status[i] = requestStatus;
        length[i] = lengthBytes;
        context[i] = requestContext;
        size++;
    }

    boolean poll(final FmCompletion into) {
        if (size == 0) {
            return false;
        }
        into.set(op[head], status[head], length[head], context[head]);
        head = (head + 1) & (op.length - 1);
        size--;
        return true;
    }

    boolean isEmpty() {
        return size == 0;
    }

    private void grow() {
        final int n = op.length;
        op = unroll(op, n);
        status = unroll(status, n);
        length = unroll(length, n);
        context = unroll(context, n);
        head = 0;
    }

    private int[] unroll(final int[] a, final int n) {
        final int[] b = Arrays.copyOf(a, 2 * n);
        for (int i = 0; i < n; i++) {
            b[i] = a[(head + i) & (n - 1)];
        }
        return b;
    }

    private long[] unroll(final long[] a, final int n) {
        final long[] b = Arrays.copyOf(a, 2 * n);
        for (int i = 0; i < n; i++) {
            b[i] = a[(head + i) & (n - 1)];
        }
        return b;
    }
}
