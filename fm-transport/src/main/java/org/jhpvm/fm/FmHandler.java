package org.jhpvm.fm;

/**
 * An FM 2.x handler: called inside {@link FastMessages#extract(int)} (or inside a send waiting for flow control, see
 * {@link FastMessages}) on the receiving PE as soon as the first frame of a message has arrived, with the message's
 * input stream. It {@link FmInputStream#receive receives} the message piecewise, into buffers of its choosing (scatter,
 * layer interleaving). Bytes it does not receive are discarded when it returns; the stream is not valid after it
 * returns.
 * <p>
 * A handler that receives bytes whose frames have not arrived is suspended until they arrive while extract goes on with
 * other messages, so a handler may run on a virtual thread rather than the PE's own thread. A handler may send
 * messages, but may not call extract. A handler that runs inside a waiting send, whose message is still open, may open
 * one message of its own, to another PE; its own sends never extract.
 */
@FunctionalInterface
public interface FmHandler {
    /**
     * Handles one message, receiving as much of it as it wants from {@code in}; what it leaves unread is discarded
     * when it returns, and {@code in} must not be used afterwards.
     *
     * @param in     the message
     * @param sender the PE that sent it
     * @throws Exception anything the handler throws leaves {@code extract} (a checked exception wrapped in an
     *                   {@link IllegalStateException} naming the handler and the sender) and, unless caught, fails the
     *                   PE's body, which aborts the job
     */
    void onMessage(FmInputStream in, int sender) throws Exception;
}
