package org.jhpvm.fabric.timing;

import java.util.List;

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
 * A stage may cost differently by frame size ({@code segments}: from each segment's {@code fromBytes} on the wire,
 * its fixed and per-byte costs replace those before), as a machine whose messaging layer sends large messages another
 * way (FM's rendezvous) or whose memory is slower past its caches costs differently per byte and per message: the
 * per-size segments SimGrid's calibration fits.
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
 * @param segments      costs of frames from a size on, by ascending {@link Segment#fromBytes}; empty for none
 */
public record Stage(boolean enabled, long fixedPs, long psPerKiloByte, boolean cutThrough, long delayPs,
                    long afterPs, List<Segment> segments) {

    /** A stage the frame does not pass. */
    public static final Stage SKIPPED = new Stage(false, 0, 0, false, 0, 0);

    /** Checks the costs are not negative. */
    public Stage {
        if (fixedPs < 0 || psPerKiloByte < 0 || delayPs < 0 || afterPs < 0) {
            throw new IllegalArgumentException("stage costs must not be negative: fixedPs=" + fixedPs
                + ", psPerKiloByte=" + psPerKiloByte + ", delayPs=" + delayPs + ", afterPs=" + afterPs);
        }
        segments = List.copyOf(segments);
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i).fromBytes() <= segments.get(i - 1).fromBytes()) {
                throw new IllegalArgumentException("segments must start at ascending sizes: " + segments);
            }
        }
    }

    /**
     * The costs of a stage's frames from a size on.
     *
     * @param fromBytes     frames of at least this many bytes on the wire (up to the next segment's) cost this
     * @param fixedPs       cost per frame in picoseconds
     * @param psPerKiloByte cost per 1000 bytes in picoseconds
     */
    public record Segment(int fromBytes, long fixedPs, long psPerKiloByte) {
        /** Checks the values are not negative. */
        public Segment {
            if (fromBytes < 0 || fixedPs < 0 || psPerKiloByte < 0) {
                throw new IllegalArgumentException("segment values must not be negative: fromBytes=" + fromBytes
                    + ", fixedPs=" + fixedPs + ", psPerKiloByte=" + psPerKiloByte);
            }
        }

        /**
         * A segment from the units machine files use.
         *
         * @param fromBytes          see the record
         * @param fixedNs            nanoseconds per frame
         * @param megaBytesPerSecond rate in MB/s; 0 means no cost per byte
         * @return the segment
         */
        public static Segment of(final int fromBytes, final double fixedNs, final double megaBytesPerSecond) {
            return new Segment(fromBytes, Math.round(fixedNs * 1000.0), Stage.psPerKiloByte(megaBytesPerSecond));
        }
    }

    /**
     * A stage that costs the same for frames of every size.
     *
     * @param enabled       whether the frame passes this stage at all
     * @param fixedPs       cost per frame in picoseconds
     * @param psPerKiloByte cost per 1000 bytes in picoseconds
     * @param cutThrough    whether the stage starts on the first bytes of the stage before it
     * @param delayPs       picoseconds the frame waits in the stage that do not keep its resource busy
     * @param afterPs       picoseconds the resource stays busy after passing the frame on
     */
    public Stage(final boolean enabled, final long fixedPs, final long psPerKiloByte, final boolean cutThrough,
                 final long delayPs, final long afterPs) {
        this(enabled, fixedPs, psPerKiloByte, cutThrough, delayPs, afterPs, List.of());
    }

    /**
     * This stage with segments.
     *
     * @param by the segments, by ascending size
     * @return the stage
     */
    public Stage withSegments(final List<Segment> by) {
        return new Stage(enabled, fixedPs, psPerKiloByte, cutThrough, delayPs, afterPs, by);
    }

    /** The last segment a frame of {@code bytes} reaches, or -1 for the stage's own costs. */
    private int segment(final int bytes) {
        int i = segments.size() - 1;
        while (i >= 0 && bytes < segments.get(i).fromBytes()) {
            i--;
        }
        return i;
    }

    /**
     * The fixed cost of a frame of {@code bytes} on the wire (its segment's).
     *
     * @param bytes bytes of the frame
     * @return picoseconds
     */
    public long fixedPs(final int bytes) {
        final int i = segment(bytes);
        return i < 0 ? fixedPs : segments.get(i).fixedPs();
    }

    /**
     * The least fixed cost of any frame: the lookahead of a conservative simulation may count on no less.
     *
     * @return picoseconds
     */
    public long leastFixedPs() {
        long least = fixedPs;
        for (int i = 0; i < segments.size(); i++) {
            least = Math.min(least, segments.get(i).fixedPs());
        }
        return least;
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
        return enabled ? fixedPs(bytes) + bytePs(bytes) : 0;
    }

    /**
     * All this stage costs a host that does it itself (a host stage: its clock takes every part).
     *
     * @param bytes bytes of the frame
     * @return picoseconds, 0 if the stage is skipped
     */
    public long hostPs(final int bytes) {
        return enabled ? fixedPs(bytes) + bytePs(bytes) + delayPs + afterPs : 0;
    }

    /**
     * The per-byte part of {@link #timePs}.
     *
     * @param bytes bytes of the frame
     * @return picoseconds
     */
    public long bytePs(final int bytes) {
        if (!enabled) {
            return 0;
        }
        final int i = segment(bytes);
        return (bytes * (i < 0 ? psPerKiloByte : segments.get(i).psPerKiloByte()) + 500) / 1000;
    }
}
