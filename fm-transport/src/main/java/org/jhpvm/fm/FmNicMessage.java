package org.jhpvm.fm;

/**
 * One NIC message as its {@link FmNicHandler} sees it: the request, read in the order it was written (the typed
 * receives of {@link FmInputStream}), the target's registered memory, and the reply, which lands in the sender's reply
 * region when the handler returns. Valid only during {@link FmNicHandler#onMessage}.
 */
public interface FmNicMessage {
    /**
     * The PE that sent the message.
     *
     * @return its number
     */
    int sender();

    /**
     * The request's length.
     *
     * @return bytes the sender wrote
     */
    int lengthBytes();

    /**
     * Reads the next int of the request.
     *
     * @return the value
     * @throws IndexOutOfBoundsException past the end of the request
     */
    int receiveInt();

    /**
     * Reads the next long of the request.
     *
     * @return the value
     * @throws IndexOutOfBoundsException past the end of the request
     */
    long receiveLong();

    /**
     * Reads the next elements of the request into an array of the same element type as they were written:
     * {@code dst[index + k*stride]} for {@code k < count}; {@code dst} is a {@code byte[]}, {@code int[]},
     * {@code long[]}, {@code float[]} or {@code double[]}.
     *
     * @param dst    where they go (registered memory or not)
     * @param index  first element
     * @param stride element stride, at least 1
     * @param count  elements
     * @throws IndexOutOfBoundsException past the end of the request or outside {@code dst}
     * @throws IllegalArgumentException  if {@code dst} is not one of those arrays
     */
    void receive(Object dst, int index, int stride, int count);

    /**
     * Passes over the next bytes of the request without reading them (a handler that checks a request of several
     * parts before it changes any memory walks it twice: {@link #rewind()}).
     *
     * @param bytes how many, at least 0
     * @throws IndexOutOfBoundsException past the end of the request
     */
    void skip(int bytes);

    /** Reads the request again from its first byte. */
    void rewind();

    /**
     * The request's bytes where they lie, for a handler that walks a request of many small entries itself (a batch
     * of puts): they start at {@link #requestOffset()} in this segment and are {@link #lengthBytes()} long, little
     * endian and unaligned as the typed sends wrote them. Reading them so leaves the receive calls' cursor alone.
     *
     * @return the segment holding the request
     */
    java.lang.foreign.MemorySegment requestSegment();

    /**
     * Where the request starts in {@link #requestSegment()}.
     *
     * @return its first byte's offset
     */
    long requestOffset();

    /**
     * The target's registered memory with this handle, if the key matches.
     *
     * @param handle the region's handle
     * @param key    its key, as the sender presented it
     * @return the registered array (or segment), or null if there is none with that handle and key: the handler then
     *     refuses the message
     */
    Object memory(int handle, int key);

    /**
     * Appends a long to the reply.
     *
     * @param value the value
     * @throws IndexOutOfBoundsException if the reply would exceed the room the sender gave (the message then fails with
     *                                   {@link FmCompletion#ERR_OUT_OF_BOUNDS} and no reply byte lands)
     */
    void replyLong(long value);

    /**
     * Appends elements to the reply: {@code src[index + k*stride]} for {@code k < count}, in their own type.
     *
     * @param src    a {@code byte[]}, {@code int[]}, {@code long[]}, {@code float[]} or {@code double[]}
     * @param index  first element
     * @param stride element stride, at least 1
     * @param count  elements
     * @throws IndexOutOfBoundsException if the reply would exceed its room, or outside {@code src}
     */
    void reply(Object src, int index, int stride, int count);

    /**
     * Refuses the message: the sender's completion says {@link FmCompletion#ERR_REJECTED} and its reply region is not
     * written. Refuse before changing memory.
     */
    void reject();

    /**
     * Says that the handler changed none of the target's memory (a read, a fetch). Where the NIC runs the handler
     * it then does not wake the target's host, which it otherwise wakes so that a wait on that memory looks again;
     * where FM carries the message the target's host receives it anyway and the hint changes nothing. Never give it
     * after changing memory: a wait on that memory would then see the change only at its next look.
     */
    void memoryUnchanged();
}
