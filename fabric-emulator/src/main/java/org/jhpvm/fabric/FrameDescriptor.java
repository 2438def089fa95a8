package org.jhpvm.fabric;

/**
 * Layout of a frame's bytes. A frame is one {@code byte[]}: the fabric's own 16-byte header, then the opaque
 * header area that belongs to the layer above, then the payload.
 *
 * <pre>
 *  0               4               8               12              16
 *  +---------------+---------------+---------------+---------------+
 *  |  source NIC   | destination   | payload length| frame state   |   fabric header (little endian ints)
 *  +---------------+---------------+---------------+---------------+
 *  |  opaque header area, headerBytes long (FM's sequence numbers,  |   16 .. 16+headerBytes
 *  |  acknowledgements, CRC, handler id ...)                        |
 *  +----------------------------------------------------------------+
 *  |  payload, 0 .. frameBytes long                                 |   16+headerBytes ..
 *  +----------------------------------------------------------------+
 * </pre>
 *
 * The source is stamped by the sending NIC (a host cannot forge it); the frame state lets the fabric reject a
 * frame sent twice or released twice. Fault injection corrupts only the opaque header and the payload: the
 * fabric header stands for Myrinet's routing header and length framing, which the link protects.
 */
public final class FrameDescriptor {
    /** Offset of the source NIC id. */
    public static final int SOURCE_OFFSET = 0;
    /** Offset of the destination NIC id. */
    public static final int DESTINATION_OFFSET = 4;
    /** Offset of the payload length in bytes. */
    public static final int LENGTH_OFFSET = 8;
    /** Offset of the frame state (see the {@code STATE_*} constants). */
    public static final int STATE_OFFSET = 12;
    /** Length of the fabric's own header; the opaque header area starts here. */
    public static final int FABRIC_HEADER_BYTES = 16;

    /** The frame is in its pool. */
    public static final int STATE_FREE = 0;
    /** The sending host holds the frame (acquired, being filled). */
    public static final int STATE_HOST = 1;
    /** The frame is in the fabric: send ring, NIC or switch. */
    public static final int STATE_IN_FABRIC = 2;
    /** The frame was delivered: it sits in a receive ring or the receiving host holds it. */
    public static final int STATE_DELIVERED = 3;

    /** Largest opaque header area a fabric accepts. */
    public static final int MAX_HEADER_BYTES = 256;
    /** Largest payload a fabric accepts per frame. */
    public static final int MAX_FRAME_BYTES = 1 << 20;

    private FrameDescriptor() {
    }

    /**
     * Where the payload starts, counted from the start of the frame (its fabric header): the fabric header plus the
     * opaque header area. Not checked: the caller passes a valid header length.
     *
     * @param headerBytes opaque header area length
     * @return offset of the payload in the frame's array
     */
    public static int payloadOffset(final int headerBytes) {
        return FABRIC_HEADER_BYTES + headerBytes;
    }

    /**
     * Names a frame state for an error message; any int is accepted, an unknown one comes out as
     * {@code UNKNOWN(n)}.
     *
     * @param state a frame state
     * @return its name, for messages
     */
    public static String stateName(final int state) {
        return switch (state) {
            case STATE_FREE -> "FREE";
            case STATE_HOST -> "HOST";
            case STATE_IN_FABRIC -> "IN_FABRIC";
            case STATE_DELIVERED -> "DELIVERED";
            default -> "UNKNOWN(" + state + ")";
        };
    }
}
