package org.jhpvm.fm;

/**
 * An FM 1.x handler: called inside {@link FastMessages#extract()} (or inside a send waiting for flow control, see
 * {@link FastMessages}) once the whole message has arrived, with the message in one contiguous buffer. The buffer is
 * valid only during the call and must not be written (a message that fits one frame is handed over in place, inside the
 * frame). A message sent with {@link FastMessages#send4} is 16 bytes: read its words with
 * {@link FastMessages#word(byte[], int, int)}.
 */
@FunctionalInterface
public interface Fm1Handler {
    /**
     * Handles one whole message, {@code lengthBytes} bytes from {@code buffer[offset]}; copy what must outlive the
     * call. A message whose frames had not all arrived when it began is staged on a virtual thread, and then this runs
     * on that thread rather than the PE's own (never both at once). A handler may send, but may not call extract.
     *
     * @param sender      the PE that sent the message
     * @param buffer      the message bytes, from {@code offset}
     * @param offset      first byte of the message in {@code buffer}
     * @param lengthBytes message length
     * @throws Exception anything the handler throws leaves {@code extract} (a checked exception wrapped in an
     *                   {@link IllegalStateException} naming the handler and the sender) and, unless caught, fails the
     *                   PE's body, which aborts the job
     */
    void onMessage(int sender, byte[] buffer, int offset, int lengthBytes) throws Exception;
}
