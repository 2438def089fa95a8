package org.jhpvm.fm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * FM's header, in the fabric frame's opaque header area (offsets from {@code Frame.headerOffset()}):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |     type      |     flags     |          handler id           |  0  DATA, ACK, NACK | FIRST, LAST, REJECT
 *  +---------------+---------------+-------------------------------+
 *  |                     sequence number (DATA)                    |  4  per sender-receiver pair, wraps
 *  +---------------------------------------------------------------+
 *  |                 cumulative acknowledgement                    |  8  frames of the reverse pair accepted
 *  +---------------------------------------------------------------+
 *  |                    payload length (copy)                      | 12  checked against the fabric's length
 *  +---------------------------------------------------------------+
 *  |            declared message length (FIRST frames)             | 16
 *  +---------------------------------------------------------------+
 *  |     CRC32C of the header area (but this word) and the payload   | 20  0 on fabrics that do not corrupt
 *  +---------------------------------------------------------------+
 *  |        rest of the fabric's header area (unused, checked)      | 24
 * </pre>
 * A message is one or more DATA frames of one pair: the first has FIRST (with the handler id and the declared
 * length), the last has LAST. Every frame carries an acknowledgement of the reverse direction.
 */
final class FmFrameDescriptor {
    /** Little-endian int view of frame arrays, as the fabric writes its own header. */
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** Little-endian long view of frame arrays. */
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static final int WORD_OFFSET = 0;
    static final int SEQ_OFFSET = 4;
    static final int ACK_OFFSET = 8;
    static final int LENGTH_OFFSET = 12;
    static final int DECLARED_OFFSET = 16;
    static final int CRC_OFFSET = 20;
    /** Opaque header bytes FM needs from the fabric. */
    static final int HEADER_BYTES = 24;

    static final int TYPE_DATA = 1;
    static final int TYPE_ACK = 2;
    static final int TYPE_NACK = 3;

    static final int FLAG_FIRST = 1;
    static final int FLAG_LAST = 2;
    /** On a NACK: the frame was dropped for lack of room, not lost. */
    static final int FLAG_REJECT = 4;

    private FmFrameDescriptor() {
    }

    static int word(final int type, final int flags, final int handler) {
        return type | flags << 8 | handler << 16;
    }

    static int type(final int word) {
        return word & 0xFF;
    }

    static int flags(final int word) {
        return (word >>> 8) & 0xFF;
    }

    static int handler(final int word) {
        return word >>> 16;
    }
}
