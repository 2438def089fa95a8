package org.jhpvm.fm;

/**
 * An open FM 2.x message, returned by {@link FastMessages#beginMessage(int, int, int)}. The message is composed of
 * pieces of any size (gather); full frames may leave before {@link #endMessage()}. The message may end shorter than
 * the length declared at {@code beginMessage}, never longer. The same object is reused for the PE's next message.
 * <p>
 * When a piece's bytes are read: a piece of a message declared shorter than {@code fm.rendezvousBytes} (or of any
 * message where the NIC does no RDMA, or sent from a handler) is copied before its call returns. A message declared
 * at least that long, where the NIC does RDMA, moves by rendezvous: its receiver pulls large contiguous pieces straight
 * from the caller's arrays, so <em>the bytes of every piece must not change until {@link #endMessage()} returns</em>
 * (as an MPI send buffer until the send completes); {@code endMessage} returns once the receiver's handler is done
 * with them. Set {@code fm.rendezvousBytes=0} for copy-on-append everywhere.
 * <p>
 * Thread-safety: used by the thread that began the message.
 */
public interface FmOutputStream {
    /**
     * Appends bytes to the message.
     *
     * @param src         source array
     * @param offset      first byte
     * @param lengthBytes number of bytes
     * @throws IndexOutOfBoundsException if the range is outside {@code src} (nothing sent)
     * @throws IllegalArgumentException  if the piece would take the message beyond its declared length (nothing sent)
     * @throws IllegalStateException     if the message has ended
     * @throws FmAbortException          if the job is aborted while waiting for flow control
     */
    void sendPiece(byte[] src, int offset, int lengthBytes);

    /**
     * Typed gather: appends {@code count} elements {@code src[index], src[index+stride], ...} as little-endian bytes,
     * copied straight from the array into frames (one bulk copy per frame when {@code stride == 1}). The typed forms
     * below do the same for the other element types.
     *
     * @param src    source array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException if an element is outside {@code src} (nothing sent)
     * @throws IllegalArgumentException  if {@code stride < 1}, {@code count < 0}, or the elements would take the
     *                                   message beyond its declared length (nothing sent)
     * @throws IllegalStateException     if the message has ended
     * @throws FmAbortException          if the job is aborted while waiting for flow control
     */
    void sendBytes(byte[] src, int index, int stride, int count);

    /**
     * As {@link #sendBytes}, 4 bytes per element: appends {@code count} {@code int} values
     * {@code src[index], src[index+stride], ...} as little-endian bytes, straight into frames.
     *
     * @param src    source array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException if an element is outside {@code src} (nothing sent)
     * @throws IllegalArgumentException  if {@code stride < 1}, {@code count < 0}, or the elements would take the
     *                                   message beyond its declared length (nothing sent)
     * @throws IllegalStateException     if the message has ended
     * @throws FmAbortException          if the job is aborted while waiting for flow control
     */
    void sendInts(int[] src, int index, int stride, int count);

    /**
     * As {@link #sendBytes}, 8 bytes per element: appends {@code count} {@code long} values
     * {@code src[index], src[index+stride], ...} as little-endian bytes, straight into frames.
     *
     * @param src    source array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException if an element is outside {@code src} (nothing sent)
     * @throws IllegalArgumentException  if {@code stride < 1}, {@code count < 0}, or the elements would take the
     *                                   message beyond its declared length (nothing sent)
     * @throws IllegalStateException     if the message has ended
     * @throws FmAbortException          if the job is aborted while waiting for flow control
     */
    void sendLongs(long[] src, int index, int stride, int count);

    /**
     * As {@link #sendBytes}, 4 bytes per element: appends {@code count} {@code float} values
     * {@code src[index], src[index+stride], ...} as little-endian bytes, straight into frames.
     *
     * @param src    source array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException if an element is outside {@code src} (nothing sent)
     * @throws IllegalArgumentException  if {@code stride < 1}, {@code count < 0}, or the elements would take the
     *                                   message beyond its declared length (nothing sent)
     * @throws IllegalStateException     if the message has ended
     * @throws FmAbortException          if the job is aborted while waiting for flow control
     */
    void sendFloats(float[] src, int index, int stride, int count);

    /**
     * As {@link #sendBytes}, 8 bytes per element: appends {@code count} {@code double} values
     * {@code src[index], src[index+stride], ...} as little-endian bytes, straight into frames.
     *
     * @param src    source array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException if an element is outside {@code src} (nothing sent)
     * @throws IllegalArgumentException  if {@code stride < 1}, {@code count < 0}, or the elements would take the
     *                                   message beyond its declared length (nothing sent)
     * @throws IllegalStateException     if the message has ended
     * @throws FmAbortException          if the job is aborted while waiting for flow control
     */
    void sendDoubles(double[] src, int index, int stride, int count);

    /**
     * Appends an int (4 bytes, little endian).
     *
     * @param value the value
     * @throws IllegalArgumentException if it would take the message beyond its declared length
     * @throws IllegalStateException    if the message has ended
     * @throws FmAbortException         if the job is aborted while waiting for flow control
     */
    void sendInt(int value);

    /**
     * Appends a long (8 bytes, little endian).
     *
     * @param value the value
     * @throws IllegalArgumentException if it would take the message beyond its declared length
     * @throws IllegalStateException    if the message has ended
     * @throws FmAbortException         if the job is aborted while waiting for flow control
     */
    void sendLong(long value);

    /**
     * Returns how many bytes have been appended to the open message so far (after {@link #endMessage()}, to the
     * message just ended, until the next {@code beginMessage}); at most the declared length.
     *
     * @return bytes appended so far
     */
    int lengthBytes();

    /**
     * Ends the message: its last frame leaves; a rendezvous message's request leaves and this call returns when the
     * receiver's handler has returned (meanwhile the PE extracts, as in a flow-control wait). Later pieces are
     * rejected.
     *
     * @throws IllegalStateException if the message has already ended
     * @throws FmAbortException      if the job is aborted while waiting for flow control
     */
    void endMessage();
}
