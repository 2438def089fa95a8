package org.jhpvm.fabric;

import java.util.List;
import java.util.Objects;

/**
 * What the emulated fabric does wrong, and when. Every decision is a pure function of
 * {@code (seed, source, destination, frame number on that path, attempt)}: the same seed replays the same faults
 * whatever the thread timing. {@code attempt} is 0 for a frame as sent and 1 for the copy a duplication makes.
 * <p>
 * Faults (each an independent probability per frame):
 * <ul>
 *   <li>drop: the frame is lost;</li>
 *   <li>corrupt: 1 to 3 bits of the opaque header or payload are flipped, really, in the bytes; the frame is
 *       delivered unmarked and the layer above must detect it;</li>
 *   <li>duplicate: a second copy is delivered after the frame;</li>
 *   <li>reorder: the frame is held back until the next frame on its path has passed it (or until
 *       {@code maxHoldNs} of the fabric's config, after which it goes in order);</li>
 *   <li>delay: the frame, and the frames behind it at the sending NIC, wait {@code delayNs};</li>
 *   <li>receiver stall: the destination's receive port accepts nothing for {@code stallNs} (senders see
 *       back-pressure), as if its host had stopped draining;</li>
 *   <li>link-down windows: see {@link LinkDownWindow}.</li>
 * </ul>
 * Immutable and thread-safe.
 *
 * @param seed        the seed every decision derives from
 * @param drop        drop probability per frame, 0..1
 * @param corrupt     corruption probability per frame, 0..1
 * @param duplicate   duplication probability per frame, 0..1
 * @param reorder     reorder probability per frame, 0..1
 * @param delay       delay probability per frame, 0..1
 * @param delayNs     how long a delayed frame waits, nanoseconds
 * @param stall       probability per frame that it starts a receiver stall at its destination, 0..1
 * @param stallNs     how long a receiver stall lasts, nanoseconds
 * @param linkDown    link-down windows
 */
public record FaultPlan(
    long seed,
    double drop,
    double corrupt,
    double duplicate,
    double reorder,
    double delay,
    long delayNs,
    double stall,
    long stallNs,
    List<LinkDownWindow> linkDown) {

    /** Decision bit: lose the frame. */
    public static final int DROP = 1;
    /** Decision bit: flip bits of the frame. */
    public static final int CORRUPT = 1 << 1;
    /** Decision bit: deliver a second copy. */
    public static final int DUPLICATE = 1 << 2;
    /** Decision bit: let the next frame on the path overtake this one. */
    public static final int REORDER = 1 << 3;
    /** Decision bit: hold the frame for {@code delayNs}. */
    public static final int DELAY = 1 << 4;
    /** Decision bit: start a receiver stall at the destination. */
    public static final int STALL = 1 << 5;
    /** Decision bit: the frame falls into a link-down window (it is lost). */
    public static final int LINK_DOWN = 1 << 6;

    private static final FaultPlan NONE = new FaultPlan(0, 0, 0, 0, 0, 0, 0, 0, 0, List.of());

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /**
     * Checks the plan and keeps an unmodifiable copy of the link-down windows, so that the plan stays immutable
     * whatever the caller later does to its list. Whether a window's NIC exists is checked by {@link FabricConfig}.
     *
     * @throws IllegalArgumentException if a probability is outside 0..1 or a duration is negative
     * @throws NullPointerException     if {@code linkDown} or one of its windows is null
     */
    public FaultPlan {
        checkProbability("drop", drop);
        checkProbability("corrupt", corrupt);
        checkProbability("duplicate", duplicate);
        checkProbability("reorder", reorder);
        checkProbability("delay", delay);
        checkProbability("stall", stall);
        if (delayNs < 0 || stallNs < 0) {
            throw new IllegalArgumentException("delayNs=" + delayNs + " and stallNs=" + stallNs
                + " must not be negative");
        }
        linkDown = List.copyOf(Objects.requireNonNull(linkDown, "linkDown"));
    }

    /**
     * The plan of a fault-free fabric, one shared instance: under it the emulated Myrinet is reliable, ordered and
     * flow-controlled.
     *
     * @return the plan that injects nothing
     */
    public static FaultPlan none() {
        return NONE;
    }

    /**
     * Starts a plan whose every decision derives from {@code seed}: two plans with the same seed and settings inject
     * the same faults into the same traffic.
     *
     * @param seed the seed
     * @return a builder for a plan with that seed and no faults yet
     */
    public static Builder builder(final long seed) {
        return new Builder(seed);
    }

    /**
     * Whether every fault probability is 0 and there is no link-down window; the seed and the durations do not
     * matter then.
     *
     * @return true if this plan can never inject a fault
     */
    public boolean isNone() {
        return drop == 0 && corrupt == 0 && duplicate == 0 && reorder == 0 && delay == 0 && stall == 0
            && linkDown.isEmpty();
    }

    /**
     * The faults for one frame: a pure function of the arguments and the plan.
     *
     * @param src         source NIC
     * @param dst         destination NIC
     * @param frameNumber frame number on the path {@code src -> dst}, from 0
     * @param attempt     0 for the frame as sent, 1 for a duplicate's copy
     * @return a bit set of {@link #DROP}, {@link #CORRUPT}, {@link #DUPLICATE}, {@link #REORDER}, {@link #DELAY},
     *     {@link #STALL}, {@link #LINK_DOWN}
     */
    public int decide(final int src, final int dst, final long frameNumber, final int attempt) {
        final long key = pathKey(src, dst, frameNumber, attempt);
        int decision = 0;
        for (int i = 0, n = linkDown.size(); i < n; i++) {
            if (linkDown.get(i).covers(src, dst, frameNumber)) {
                decision |= LINK_DOWN;
                break;
            }
        }
        decision |= bit(key, 1, drop, DROP);
        decision |= bit(key, 2, corrupt, CORRUPT);
        decision |= bit(key, 3, duplicate, DUPLICATE);
        decision |= bit(key, 4, reorder, REORDER);
        decision |= bit(key, 5, delay, DELAY);
        decision |= bit(key, 6, stall, STALL);
        return decision;
    }

    /**
     * Which bit a corruption flips: also a pure function, so a replay flips the same bits.
     *
     * @param src         source NIC
     * @param dst         destination NIC
     * @param frameNumber frame number on the path
     * @param attempt     0 or 1 as in {@link #decide}
     * @param flip        which flip of this frame, from 0
     * @param bits        number of bits that may be flipped (opaque header plus payload, times 8)
     * @return the bit index to flip, {@code 0 .. bits-1}
     */
    public int corruptionBit(final int src, final int dst, final long frameNumber, final int attempt, final int flip,
                             final int bits) {
        final long h = mix(pathKey(src, dst, frameNumber, attempt) + GOLDEN * (16 + flip));
        return (int) Long.remainderUnsigned(h, bits);
    }

    /**
     * How many bits a corruption flips, 1 to 3.
     *
     * @param src         source NIC
     * @param dst         destination NIC
     * @param frameNumber frame number on the path
     * @param attempt     0 or 1 as in {@link #decide}
     * @return 1, 2 or 3
     */
    public int corruptionFlips(final int src, final int dst, final long frameNumber, final int attempt) {
        return 1 + (int) Long.remainderUnsigned(mix(pathKey(src, dst, frameNumber, attempt) + GOLDEN * 15), 3);
    }

    /**
     * Corrupts a frame as the plan says: flips 1 to 3 distinct bits of its opaque header and payload, chosen by
     * {@link #corruptionFlips} and {@link #corruptionBit}, so that a replay flips the same bits.
     *
     * @param frame       the frame (or the copy) to corrupt
     * @param src         source NIC
     * @param dst         destination NIC
     * @param frameNumber frame number on the path
     * @param attempt     0 or 1 as in {@link #decide}
     * @return false if the frame has no bits to flip (no header area and no payload)
     */
    public boolean corrupt(final Frame frame, final int src, final int dst, final long frameNumber, final int attempt) {
        final int bits = (frame.headerBytes() + frame.length()) * 8;
        if (bits == 0) {
            return false;
        }
        final int flips = Math.min(corruptionFlips(src, dst, frameNumber, attempt), bits);
        final byte[] bytes = frame.array();
        int first = -1;
        int second = -1;
        for (int i = 0; i < flips; i++) {
            int bit = corruptionBit(src, dst, frameNumber, attempt, i, bits);
            while (bit == first || bit == second) {
                bit = bit + 1 == bits ? 0 : bit + 1;
            }
            bytes[frame.headerOffset() + (bit >>> 3)] ^= (byte) (1 << (bit & 7));
            if (i == 0) {
                first = bit;
            } else {
                second = bit;
            }
        }
        return true;
    }

    private long pathKey(final int src, final int dst, final long frameNumber, final int attempt) {
        long h = mix(seed ^ GOLDEN);
        h = mix(h + ((long) src << 32 | (dst & 0xFFFFFFFFL)));
        h = mix(h + frameNumber);
        return mix(h + attempt);
    }

    private static int bit(final long key, final int kind, final double probability, final int flag) {
        if (probability <= 0) {
            return 0;
        }
        final double u = (mix(key + GOLDEN * kind) >>> 11) * 0x1.0p-53;
        return u < probability ? flag : 0;
    }

    /** SplitMix64's finaliser: a bijective 64-bit mixer. */
    static long mix(final long x) {
        long z = x;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static void checkProbability(final String name, final double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " probability=" + p + " outside 0..1");
        }
    }

    /**
     * Builds a {@link FaultPlan}; each setter validates its argument at {@link #build()}.
     */
    public static final class Builder {
        private final long seed;
        private double drop;
        private double corrupt;
        private double duplicate;
        private double reorder;
        private double delay;
        private long delayNs = 20_000;
        private double stall;
        private long stallNs = 50_000;
        private final java.util.ArrayList<LinkDownWindow> linkDown = new java.util.ArrayList<>();

        private Builder(final long seed) {
            this.seed = seed;
        }

        /**
         * Sets the probability that a frame is lost (default 0); checked by {@link #build()}: {@code 0..1}.
         *
         * @param p drop probability per frame
         * @return this
         */
        public Builder drop(final double p) {
            drop = p;
            return this;
        }

        /**
         * Sets the probability that 1 to 3 bits of a frame's opaque header or payload are flipped (default 0);
         * checked by {@link #build()}: {@code 0..1}.
         *
         * @param p corruption probability per frame
         * @return this
         */
        public Builder corrupt(final double p) {
            corrupt = p;
            return this;
        }

        /**
         * Sets the probability that a second copy of a frame is delivered after it (default 0); checked by
         * {@link #build()}: {@code 0..1}.
         *
         * @param p duplication probability per frame
         * @return this
         */
        public Builder duplicate(final double p) {
            duplicate = p;
            return this;
        }

        /**
         * Sets the probability that a frame is held back until the next frame on its path has overtaken it, or until
         * the fabric's {@code maxHoldNs} has passed (default 0); checked by {@link #build()}: {@code 0..1}.
         *
         * @param p reorder probability per frame
         * @return this
         */
        public Builder reorder(final double p) {
            reorder = p;
            return this;
        }

        /**
         * Sets the probability that a frame, and the frames behind it at the sending NIC, wait before delivery, and
         * how long (default probability 0, 20,000 ns); checked by {@link #build()}: {@code p} in {@code 0..1},
         * {@code ns} not negative.
         *
         * @param p  delay probability per frame
         * @param ns delay in nanoseconds
         * @return this
         */
        public Builder delay(final double p, final long ns) {
            delay = p;
            delayNs = ns;
            return this;
        }

        /**
         * Sets the probability that a frame makes its destination's receive port accept nothing for a while, as if
         * its host had stopped draining, and how long (default probability 0, 50,000 ns); checked by
         * {@link #build()}: {@code p} in {@code 0..1}, {@code ns} not negative.
         *
         * @param p  receiver-stall probability per frame
         * @param ns stall length in nanoseconds
         * @return this
         */
        public Builder receiverStall(final double p, final long ns) {
            stall = p;
            stallNs = ns;
            return this;
        }

        /**
         * Adds a link-down window; windows add up, and a frame in any of them is lost. Whether the window's NIC
         * exists is checked when the plan meets a {@link FabricConfig}.
         *
         * @param window a link-down window
         * @return this
         * @throws NullPointerException if {@code window} is null (nothing is added)
         */
        public Builder linkDown(final LinkDownWindow window) {
            linkDown.add(Objects.requireNonNull(window, "window"));
            return this;
        }

        /**
         * Makes the plan from the settings so far; the builder is unchanged and may build again.
         *
         * @return the plan
         * @throws IllegalArgumentException if a probability or duration is out of range
         */
        public FaultPlan build() {
            return new FaultPlan(seed, drop, corrupt, duplicate, reorder, delay, delayNs, stall, stallNs, linkDown);
        }
    }
}
