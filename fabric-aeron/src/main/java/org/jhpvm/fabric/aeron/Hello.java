package org.jhpvm.fabric.aeron;

import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The join handshake's message, the first on every publication of a job: who sends, to whom, the job's shape, the
 * publication's session id, and an HMAC-SHA256 of all that under the job's secret. A receiver accepts data from an
 * Aeron image (one sender's publication) only after that image's first message verified; anything else is dropped
 * and counted. The session id in the MAC ties a hello to the publication that carried it.
 * <p>
 * Layout (little endian): magic, kind, src, dst, nicCount, processes, pesPerProcess, sessionId (ints), job hash
 * (long), the sender's process id (long, for a liveness check by processes on the same host), MAC (32 bytes). Not thread-safe (one per thread that writes or checks hellos).
 */
final class Hello {
    /** Length of a hello in bytes. */
    static final int BYTES = 80;
    /** First int of a hello (negative: a data frame starts with its source NIC, never negative). */
    static final int MAGIC = 0xC0DE_4A48;
    /** A hello on a data publication (src and dst are NICs). */
    static final int KIND_DATA = 0;
    /** A hello on a control publication (src and dst are ranks). */
    static final int KIND_CONTROL = 1;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int PID_OFFSET = 40;
    private static final int MAC_OFFSET = 48;
    private static final long PID = ProcessHandle.current().pid();

    private final Mac mac;
    private final long jobHash;
    private final int nicCount;
    private final int processes;
    private final int pesPerProcess;
    private final byte[] scratch = new byte[MAC_OFFSET];
    private final byte[] expected = new byte[32];
    private final byte[] got = new byte[32];

    Hello(final byte[] secret, final String jobId, final int nicCount, final int processes, final int pesPerProcess) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
        long h = 1125899906842597L;
        for (int i = 0; i < jobId.length(); i++) {
            h = 31 * h + jobId.charAt(i);
        }
        this.jobHash = h;
        this.nicCount = nicCount;
        this.processes = processes;
        this.pesPerProcess = pesPerProcess;
    }

    /** Writes a hello for a publication into {@code buffer} at 0; returns its length. */
    int write(final MutableDirectBuffer buffer, final int kind, final int src, final int dst, final int sessionId) {
        buffer.putInt(0, MAGIC, LE);
        buffer.putInt(4, kind, LE);
        buffer.putInt(8, src, LE);
        buffer.putInt(12, dst, LE);
        buffer.putInt(16, nicCount, LE);
        buffer.putInt(20, processes, LE);
        buffer.putInt(24, pesPerProcess, LE);
        buffer.putInt(28, sessionId, LE);
        buffer.putLong(32, jobHash, LE);
        buffer.putLong(PID_OFFSET, PID, LE);
        sign(buffer, 0, expected);
        buffer.putBytes(MAC_OFFSET, expected);
        return BYTES;
    }

    /**
     * Checks a hello that arrived on an image.
     *
     * @return the sender (NIC or rank), or a negative reason: -1 not a genuine hello of this job (wrong length,
     *     magic, MAC, job, kind, destination or session), -2 a genuine hello from a job of another shape
     */
    int verify(final DirectBuffer buffer, final int offset, final int length, final int sessionId, final int kind,
               final int dst) {
        if (length != BYTES || buffer.getInt(offset, LE) != MAGIC) {
            return -1;
        }
        sign(buffer, offset, expected);
        buffer.getBytes(offset + MAC_OFFSET, got);
        if (!MessageDigest.isEqual(expected, got) || buffer.getInt(offset + 28, LE) != sessionId
            || buffer.getLong(offset + 32, LE) != jobHash || buffer.getInt(offset + 4, LE) != kind
            || buffer.getInt(offset + 12, LE) != dst) {
            return -1;
        }
        if (buffer.getInt(offset + 16, LE) != nicCount || buffer.getInt(offset + 20, LE) != processes
            || buffer.getInt(offset + 24, LE) != pesPerProcess) {
            return -2;
        }
        return buffer.getInt(offset + 8, LE);
    }

    /**
     * The process id a verified hello names.
     *
     * @return the sender's process id
     */
    static long pid(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + PID_OFFSET, LE);
    }

    /** @return the job shape a genuine hello claims, for the mismatch message */
    static String shape(final DirectBuffer buffer, final int offset) {
        return buffer.getInt(offset + 16, LE) + " PEs in " + buffer.getInt(offset + 20, LE) + " processes of "
            + buffer.getInt(offset + 24, LE) + " PEs";
    }

    /** @return this process's job shape */
    String shape() {
        return nicCount + " PEs in " + processes + " processes of " + pesPerProcess + " PEs";
    }

    private void sign(final DirectBuffer buffer, final int offset, final byte[] into) {
        buffer.getBytes(offset, scratch, 0, MAC_OFFSET);
        mac.update(scratch);
        try {
            mac.doFinal(into, 0);
        } catch (javax.crypto.ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        Arrays.fill(scratch, (byte) 0);
    }
}
