package org.jhpvm.fm.internal;

import org.jhpvm.fabric.VirtualTime;

/**
 * The clock of FM's timers (retransmission, acknowledgement delays, the rate limits of negative acknowledgements):
 * on a fabric with a virtual clock the NIC's virtual time, so that a lost frame costs the modelled time of its
 * timeout; otherwise the wall clock, as before.
 */
final class FmTime {
    private FmTime() {
    }

    /**
     * Now, on the timers' clock.
     *
     * @param virtualClock whether the endpoint's fabric keeps a virtual clock
     * @return nanoseconds, for differences only
     */
    static long now(final boolean virtualClock) {
        return virtualClock ? VirtualTime.nanoTime() : System.nanoTime();
    }
}
