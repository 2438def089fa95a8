package org.jhpvm.fabric;

import java.lang.foreign.MemorySegment;

/**
 * What a {@link NicHandler} sees of one NIC message: the request frame, the target NIC's registered memory, and the
 * reply that goes back into the sender's reply region. Valid only during {@link NicHandler#onMessage}.
 */
public interface NicMessage {
    /**
     * The NIC that sent the message.
     *
     * @return its id
     */
    int source();

    /**
     * The request: its opaque header area and payload as the sender wrote them (read them; do not keep the frame).
     *
     * @return the frame
     */
    Frame frame();

    /**
     * A registered region of the target NIC (the one running the handler), if the handle is registered with this key.
     *
     * @param handle the region's handle
     * @param key    its key, as the sender presented it
     * @return the region, or null if no region has that handle and key (the handler then refuses the message)
     */
    MemoryRegion region(int handle, int key);

    /**
     * Appends bytes to the reply, which lands in the sender's reply region when the handler returns.
     *
     * @param src         where the bytes are
     * @param offsetBytes first byte
     * @param lengthBytes bytes
     * @throws IndexOutOfBoundsException if the reply would exceed the room the sender gave (the message then fails
     *                                   with {@link Completion#ERR_OUT_OF_BOUNDS} and no reply byte lands)
     */
    void reply(MemorySegment src, long offsetBytes, long lengthBytes);

    /**
     * Appends one long (little endian) to the reply.
     *
     * @param value the value
     * @throws IndexOutOfBoundsException if the reply would exceed the room the sender gave
     */
    void replyLong(long value);

    /**
     * Refuses the message: the sender's completion reports {@link Completion#ERR_REJECTED} and its reply region is not
     * written. The handler must not have changed memory before refusing.
     */
    void reject();

    /**
     * Says that the handler changed none of the target NIC's memory (a read, a fetch): the target's host, which a
     * NIC message otherwise wakes so that a wait on its memory looks again, is then left alone. A hint only: a
     * handler that changed memory must not give it, and one that does not give it costs the host a wake-up. A fabric
     * that wakes no host for its NIC's writes may ignore it (the default).
     */
    default void memoryUnchanged() {
    }
}
