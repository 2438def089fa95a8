package org.jhpvm.fabric.timing;

/**
 * One stage a frame passes on its way (the host's send, a DMA engine, the LANai, the link): a fixed cost per frame
 * plus a cost per byte, all in picoseconds. A stage that is not {@code enabled} is skipped (a machine whose host
 * writes frames to the NIC by programmed I/O has no send DMA). A {@code cutThrough} stage starts as soon as the
 * stage before it has passed on its first bytes (after that stage's fixed cost), and cannot finish before that stage
 * has finished; otherwise it starts when the stage before it has finished (store and forward). Two more costs split
 * what a stage holds from what a frame waits: {@code delayPs} delays the frame without keeping the stage's resource
 * busy (a pipeline's depth: a modern NIC takes 200 ns to pass a frame on but starts the next after a few), and
 * {@code afterPs} keeps the resource busy after the frame has been passed on without delaying it (work the LANai does
 * once a packet is handed over, such as FM 1.0's {@code switch()} statement).
 * <p>
 * Immutable; the arithmetic is exact in {@code long} picoseconds, so the same inputs give the same times bitwise.
 *
 * @param enabled       whether the frame passes this stage at all
 * @param fixedPs       cost per frame in picoseconds
 * @param psPerKiloByte cost per 1000 bytes in picoseconds (0: none), so that a per-byte cost of a fraction of a
 *                      picosecond stays exact
 * @param cutThrough    whether the stage starts on the first bytes of the stage before it
 * @param delayPs       picoseconds the frame waits in the stage that do not keep its resource busy
 * @param afterPs       picoseconds the resource stays busy after passing the frame on
 */
public record Stage(boolean enabled, long fixedPs, long psPerKiloByte, boolean cutThrough, long delayPs,
                    long afterPs) {
    /** A stage the frame does not pass. */
    public static final Stage SKIPPED = new Stage(false, 0, 0, false, 0, 0);

    /** Checks the costs are not negative. */
    public Stage {
        if (fixedPs < 0 || psPerKiloByte < 0 || delayPs < 0 || afterPs < 0) {
            throw new IllegalArgumentException("stage costs must not be negative: fixedPs=" + fixedPs
                + ", psPerKiloByte=" + psPerKiloByte + ", delayPs=" + delayPs + ", afterPs=" + afterPs);
        }
    }

    /**
     * A stage without delay or work after the hand-over.
     *
     * @param enabled       whether the frame passes this stage at all
     * @param fixedPs       cost per frame in picoseconds
     * @param psPerKiloByte cost per 1000 bytes in picoseconds
     * @param cutThrough    whether the stage starts on the first bytes of the stage before it
     */
    public Stage(final boolean enabled, final long fixedPs, final long psPerKiloByte, final boolean cutThrough) {
        this(enabled, fixedPs, psPerKiloByte, cutThrough, 0, 0);
    }

    /**
     * A stage from the units machine files use.
     *
     * @param enabled    whether the frame passes this stage
     * @param fixedNs    nanoseconds per frame
     * @param megaBytesPerSecond rate in MB/s (10^6 bytes per second); 0 means no cost per byte
     * @param cutThrough whether it starts on the first bytes of the stage before
     * @return the stage
     */
    public static Stage of(final boolean enabled, final double fixedNs, final double megaBytesPerSecond,
                           final boolean cutThrough) {
        return of(enabled, fixedNs, megaBytesPerSecond, cutThrough, 0, 0);
    }

    /**
     * A stage from the units machine files use, with a delay and work after the hand-over.
     *
     * @param enabled            whether the frame passes this stage
     * @param fixedNs            nanoseconds per frame
     * @param megaBytesPerSecond rate in MB/s; 0 means no cost per byte
     * @param cutThrough         whether it starts on the first bytes of the stage before
     * @param delayNs            nanoseconds the frame waits without keeping the resource busy
     * @param afterNs            nanoseconds the resource stays busy after the hand-over
     * @return the stage
     */
    public static Stage of(final boolean enabled, final double fixedNs, final double megaBytesPerSecond,
                           final boolean cutThrough, final double delayNs, final double afterNs) {
        return new Stage(enabled, Math.round(fixedNs * 1000.0), psPerKiloByte(megaBytesPerSecond), cutThrough,
            Math.round(delayNs * 1000.0), Math.round(afterNs * 1000.0));
    }

    /**
     * Picoseconds per 1000 bytes at a rate: 1000 bytes at R MB/s take 1000 / R microseconds.
     *
     * @param megaBytesPerSecond the rate; 0 means free
     * @return picoseconds per 1000 bytes
     */
    static long psPerKiloByte(final double megaBytesPerSecond) {
        return megaBytesPerSecond == 0 ? 0 : Math.round(1.0e9 / megaBytesPerSecond);
    }

    /**
     * The time this stage's resource works on a frame of {@code bytes} on the wire before passing it on (its fixed
     * and per-byte costs; not the delay, not the work after).
     *
     * @param bytes bytes of the frame (payload and the machine's header)
     * @return picoseconds, 0 if the stage is skipped
     */
    public long timePs(final int bytes) {
        return enabled ? fixedPs + bytePs(bytes) : 0;
    }

    /**
     * All this stage costs a host that does it itself (a host stage: its clock takes every part).
     *
     * @param bytes bytes of the frame
     * @return picoseconds, 0 if the stage is skipped
     */
    public long hostPs(final int bytes) {
        return enabled ? fixedPs + bytePs(bytes) + delayPs + afterPs : 0;
    }

    /**
     * The per-byte part of {@link #timePs}.
     *
     * @param bytes bytes of the frame
     * @return picoseconds
     */
    public long bytePs(final int bytes) {
        return enabled ? (bytes * psPerKiloByte + 500) / 1000 : 0;
    }
}
