package org.jhpvm.fabric.aeron;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The control plane's messages ({@link ControlPlane}): a magic int and a type, then little-endian fields and a
 * payload. HEARTBEAT; FAIL (nic, flags, message: a PE failed, or a process is lost; flag 1: the sender reports it to
 * the user); PROBE (job, wave); REPORT (job, wave, done, sent, consumed, blocked stamp); DONE (job); BYE; EXIT (nic,
 * status: a PE ended the job with an exit status); DESCRIBE (job, request); DESCRIPTION (job, request, text).
 */
final class ControlMessages {
    static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    static final int MAGIC = 0x4A43_544C;
    static final int HEARTBEAT = 1;
    static final int FAIL = 2;
    /** FAIL's flag: the sender reports the failure (its own PE's); without it, the lowest surviving rank does. */
    static final int FAIL_SENDER_REPORTS = 1;
    static final int PROBE = 3;
    static final int REPORT = 4;
    static final int DONE = 5;
    static final int BYE = 6;
    static final int EXIT = 7;
    static final int DESCRIBE = 8;
    static final int DESCRIPTION = 9;
    /** Longest text of a DESCRIPTION, in bytes (the rest is cut). */
    static final int MAX_DESCRIPTION_BYTES = 16 << 10;
    /** Longest message text of a FAIL, in bytes (the rest is cut). */
    private static final int MAX_FAIL_BYTES = 2000;

    private ControlMessages() {
    }

    /** @return a FAIL message */
    static byte[] failMessage(final int nic, final int flags, final String message) {
        final byte[] text = message.getBytes(StandardCharsets.UTF_8);
        final byte[] m = twoInts(FAIL, nic, flags, Math.min(text.length, MAX_FAIL_BYTES));
        new UnsafeBuffer(m).putBytes(16, text, 0, m.length - 16);
        return m;
    }

    /** @return an EXIT message */
    static byte[] exitMessage(final int nic, final int status) {
        return twoInts(EXIT, nic, status, 0);
    }

    /** A message of {@code type} with two int fields and room for {@code payload} bytes after them. */
    private static byte[] twoInts(final int type, final int a, final int b, final int payload) {
        final byte[] m = new byte[16 + payload];
        final UnsafeBuffer buf = new UnsafeBuffer(m);
        buf.putInt(0, MAGIC, LE);
        buf.putInt(4, type, LE);
        buf.putInt(8, a, LE);
        buf.putInt(12, b, LE);
        return m;
    }

    /** @return a payload's UTF-8 text */
    static String text(final DirectBuffer b, final int offset, final int length) {
        final byte[] bytes = new byte[Math.max(0, length)];
        b.getBytes(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
