package org.jhpvm.fm.internal;

import java.lang.invoke.VarHandle;
import java.util.zip.CRC32C;

import org.jhpvm.fabric.Frame;

/**
 * The CRC32C word of FM frames (see {@link FmFrameDescriptor}): computed and checked only where the fabric may
 * corrupt (or with {@code alwaysChecksum}), else 0 and not looked at. One per endpoint, shared by its send path,
 * acknowledgements and receive path; single-threaded (the CRC state is reused, nothing is allocated).
 */
final class FrameChecksum {
    private static final VarHandle INT = FmFrameDescriptor.INT;

    private final CRC32C crc = new CRC32C();
    private final boolean enabled;

    FrameChecksum(final boolean enabled) {
        this.enabled = enabled;
    }

    /** @return true if frames carry and are checked against a CRC */
    boolean enabled() {
        return enabled;
    }

    /** @return the CRC word for a frame about to be sent: its checksum, or 0 when checksums are off */
    int valueFor(final Frame f, final int length) {
        return enabled ? checksum(f, length) : 0;
    }

    /** @return true if checksums are off, or the frame's length copy and CRC match what arrived */
    boolean verify(final Frame f, final int length) {
        return !enabled || checksumOk(f, length);
    }

    /**
     * Zeroes the header bytes after FM's own: the checksum covers them, and a pooled frame (or a copy put back into
     * one) must carry the same bytes there every time it is sent.
     */
    static void clearSpareHeader(final Frame f) {
        final int from = f.headerOffset() + FmFrameDescriptor.HEADER_BYTES;
        java.util.Arrays.fill(f.array(), from, f.headerOffset() + f.headerBytes(), (byte) 0);
    }

    private boolean checksumOk(final Frame f, final int length) {
        return (int) INT.get(f.array(), f.headerOffset() + FmFrameDescriptor.LENGTH_OFFSET) == length
            && (int) INT.get(f.array(), f.headerOffset() + FmFrameDescriptor.CRC_OFFSET) == checksum(f, length);
    }

    private int checksum(final Frame f, final int length) {
        crc.reset();
        crc.update(f.array(), f.headerOffset(), FmFrameDescriptor.CRC_OFFSET);
        // The rest of the fabric's header area is covered too, unused as it is: every flipped bit is caught.
        crc.update(f.array(), f.headerOffset() + FmFrameDescriptor.HEADER_BYTES,
            f.headerBytes() - FmFrameDescriptor.HEADER_BYTES);
        crc.update(f.array(), f.payloadOffset(), length);
        return (int) crc.getValue();
    }
}
