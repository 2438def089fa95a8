package org.jhpvm.fm;

/**
 * An FM 1.x handler: called inside {@link FastMessages#extract()} once the whole message has arrived, with the
 * message in one contiguous buffer. The buffer is valid only during the call and must not be written (a message
 * that fits one frame is handed over in place, inside the frame). A message sent with
 * {@link FastMessages#send4} is 16 bytes: read its words with {@link FastMessages#word(byte[], int, int)}.
 */
@FunctionalInterface
public interface Fm1Handler {
    /**
     * @param sender      the PE that sent the message
     * @param buffer      the message bytes, from {@code offset}
     * @param offset      first byte of the message in {@code buffer}
     * @param lengthBytes message length
     * @throws Exception anything the handler throws leaves {@code extract}
     */
    void onMessage(int sender, byte[] buffer, int offset, int lengthBytes) throws Exception;
}
