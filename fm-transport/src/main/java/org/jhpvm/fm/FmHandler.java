package org.jhpvm.fm;

/**
 * An FM 2.x handler: called inside {@link FastMessages#extract(int)} on the receiving PE as soon as the first frame
 * of a message has arrived, with the message's input stream. It {@link FmInputStream#receive receives} the message
 * piecewise, into buffers of its choosing (scatter, layer interleaving). Bytes it does not receive are discarded
 * when it returns; the stream is not valid after it returns.
 * <p>
 * A handler that receives bytes whose frames have not arrived is suspended until they arrive while extract goes on
 * with other messages, so a handler may run on a virtual thread rather than the PE's own thread. A handler may
 * send messages (never while another message of this PE is open), but may not call extract.
 */
@FunctionalInterface
public interface FmHandler {
    /**
     * @param in     the message
     * @param sender the PE that sent it
     * @throws Exception anything the handler throws leaves {@code extract} and ends the PE's body unless caught
     */
    void onMessage(FmInputStream in, int sender) throws Exception;
}
