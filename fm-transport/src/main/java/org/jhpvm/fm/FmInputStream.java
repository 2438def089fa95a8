package org.jhpvm.fm;

/**
 * The message a {@link FmHandler} is called with. {@link #receive} may be called any number of times with pieces of
 * any size, independent of how the sender split the message (scatter). It is valid only inside the handler call.
 * <p>
 * Thread-safety: used by the handler that was given it.
 */
public interface FmInputStream {
    /**
     * Returns the PE that sent the message, the same as the handler's {@code sender} argument.
     *
     * @return the PE that sent the message
     */
    int sender();

    /**
     * Returns the handler id the message was sent to, so that one handler registered under several ids can tell them
     * apart.
     *
     * @return the handler id the message was sent to
     */
    int handler();

    /**
     * Returns the length the sender declared at {@code beginMessage}: the message may end shorter, never longer, and
     * no receive may go beyond it.
     *
     * @return the length the sender declared: an upper bound of the message length
     */
    int declaredLength();

    /**
     * Returns how many bytes of the message the handler has received so far, by every receive form together.
     *
     * @return bytes received so far
     */
    int receivedBytes();

    /**
     * Receives exactly {@code lengthBytes} bytes into {@code dst}, waiting for frames that have not arrived yet
     * (the handler is suspended; extract goes on with other messages).
     *
     * @param dst         destination array
     * @param offset      first byte of {@code dst}
     * @param lengthBytes bytes to receive
     * @throws IndexOutOfBoundsException if the range is outside {@code dst}, or goes beyond the declared length
     *                                   (nothing received)
     * @throws IllegalStateException     if called outside the handler, or if the message ends before
     *                                   {@code lengthBytes} bytes (the bytes that were there have been received)
     * @throws FmAbortException          if the job is aborted while the handler waits
     */
    void receive(byte[] dst, int offset, int lengthBytes);

    /**
     * Receives up to {@code lengthBytes} bytes, fewer only where the message ends.
     *
     * @param dst         destination array
     * @param offset      first byte of {@code dst}
     * @param lengthBytes most bytes to receive
     * @return bytes received, 0 if the message has ended
     * @throws IndexOutOfBoundsException if the range is outside {@code dst} (nothing received)
     * @throws IllegalStateException     if called outside the handler
     */
    int receiveUpTo(byte[] dst, int offset, int lengthBytes);

    /**
     * Typed scatter: receives {@code count} little-endian elements into {@code dst[index], dst[index+stride], ...},
     * copied straight from the frames (one bulk copy per frame when {@code stride == 1}), waiting for frames as
     * {@link #receive} does. The typed forms below do the same for the other element types.
     *
     * @param dst    destination array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException if an element is outside {@code dst}, or the bytes go beyond the declared
     *                                   length (nothing received)
     * @throws IllegalArgumentException  if {@code stride < 1} or {@code count < 0}
     * @throws IllegalStateException     as for {@link #receive}
     */
    void receiveBytes(byte[] dst, int index, int stride, int count);

    /**
     * As {@link #receiveBytes}, 4 bytes per element: receives {@code count} little-endian {@code int} values into
     * {@code dst[index], dst[index+stride], ...}, straight from the frames.
     *
     * @param dst    destination array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException as for {@link #receiveBytes} (nothing received)
     * @throws IllegalArgumentException  if {@code stride < 1} or {@code count < 0}
     * @throws IllegalStateException     as for {@link #receive}
     */
    void receiveInts(int[] dst, int index, int stride, int count);

    /**
     * As {@link #receiveBytes}, 8 bytes per element: receives {@code count} little-endian {@code long} values into
     * {@code dst[index], dst[index+stride], ...}, straight from the frames.
     *
     * @param dst    destination array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException as for {@link #receiveBytes} (nothing received)
     * @throws IllegalArgumentException  if {@code stride < 1} or {@code count < 0}
     * @throws IllegalStateException     as for {@link #receive}
     */
    void receiveLongs(long[] dst, int index, int stride, int count);

    /**
     * As {@link #receiveBytes}, 4 bytes per element: receives {@code count} little-endian {@code float} values into
     * {@code dst[index], dst[index+stride], ...}, straight from the frames.
     *
     * @param dst    destination array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException as for {@link #receiveBytes} (nothing received)
     * @throws IllegalArgumentException  if {@code stride < 1} or {@code count < 0}
     * @throws IllegalStateException     as for {@link #receive}
     */
    void receiveFloats(float[] dst, int index, int stride, int count);

    /**
     * As {@link #receiveBytes}, 8 bytes per element: receives {@code count} little-endian {@code double} values into
     * {@code dst[index], dst[index+stride], ...}, straight from the frames.
     *
     * @param dst    destination array
     * @param index  first element
     * @param stride distance between elements, at least 1
     * @param count  number of elements, at least 0
     * @throws IndexOutOfBoundsException as for {@link #receiveBytes} (nothing received)
     * @throws IllegalArgumentException  if {@code stride < 1} or {@code count < 0}
     * @throws IllegalStateException     as for {@link #receive}
     */
    void receiveDoubles(double[] dst, int index, int stride, int count);

    /**
     * Receives the next 4 bytes of the message, waiting for their frame as {@link #receive} does.
     *
     * @return the next 4 bytes as a little-endian int
     * @throws IndexOutOfBoundsException if fewer than 4 bytes of the declared length are left (nothing received)
     * @throws IllegalStateException     as for {@link #receive}
     */
    int receiveInt();

    /**
     * Receives the next 8 bytes of the message, waiting for their frame as {@link #receive} does.
     *
     * @return the next 8 bytes as a little-endian long
     * @throws IndexOutOfBoundsException if fewer than 8 bytes of the declared length are left (nothing received)
     * @throws IllegalStateException     as for {@link #receive}
     */
    long receiveLong();
}
