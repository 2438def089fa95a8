package org.jhpvm.fabric;

/**
 * A handler the target NIC runs when a NIC message for it arrives ({@link Nic#registerNicHandler}): the LANai
 * control program's programmability, or today's NIC offload (Portals 4 triggered operations, sPIN). It runs without
 * the target host thread, so a host that computes for seconds still serves it at once.
 * <p>
 * What a NIC handler may do: read the message ({@link NicMessage#frame()}), read and write the target's registered
 * memory ({@link NicMessage#region}), atomically too, and reply ({@link NicMessage#reply}). What it may not do:
 * block, wait, allocate, take locks, or touch memory that is not registered: it runs on the NIC's engine, which
 * serves every other request meanwhile. Several messages from different senders may run at the same time, so a
 * handler that updates shared memory does so with atomic operations where the operation needs it (as the memory of
 * a real NIC's DMA is shared with its host).
 */
@FunctionalInterface
public interface NicHandler {
    /**
     * Serves one message.
     *
     * @param message the message, the target's registered memory and the reply
     */
    void onMessage(NicMessage message);
}
