package org.jhpvm.fm;

/**
 * A handler for NIC messages ({@link FastMessages#registerNicHandler}): where the fabric's NIC runs handlers of its
 * own ({@link FastMessages#nicOffload()}), the target NIC runs it when the message arrives, without the target PE's
 * thread, so a PE that computes still serves it at once; elsewhere FM runs the same handler inside the target's
 * extract, as a host handler. Either way it sees the same {@link FmNicMessage}.
 * <p>
 * A NIC handler is short: it reads the message, reads and writes registered memory (atomically where several senders
 * may update the same word), replies, and returns. It never blocks, waits, sends, allocates or takes locks, and
 * touches no memory that is not registered: on the NIC it runs on the engine that serves everyone, and messages from
 * different senders may run at the same time.
 */
@FunctionalInterface
public interface FmNicHandler {
    /**
     * Serves one message.
     *
     * @param message the request, the target's registered memory and the reply
     */
    void onMessage(FmNicMessage message);
}
