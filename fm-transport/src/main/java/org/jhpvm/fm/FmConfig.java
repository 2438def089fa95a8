package org.jhpvm.fm;

import java.util.List;

/**
 * Fast Messages settings, validated once by the constructor; an error names the setting to fix. Immutable. Sizes
 * given as 0 are derived from the fabric when an endpoint opens (see the module README).
 *
 * @param windowFrames        data frames a PE may have sent and not yet seen acknowledged, that is accepted by their
 *                            receiver (queued or handed to its extract), all destinations together (its retransmission
 *                            store, FM 1.0's "reserved space for each outstanding packet"); 0 derives
 *                            {@code min(32, max(2, poolFrames / 4))}
 * @param receiveQueueFrames  arrived frames a PE holds for its next extract while it does something else; 0 derives
 *                            {@code max(1, receiveRingCapacity / 2)}
 * @param ackEveryFrames      frames accepted from one sender and not yet acknowledged after which an explicit
 *                            acknowledgement is sent at once if no data frame carried one; 0 derives
 *                            {@code max(1, windowFrames / 2)}
 * @param ackDelayNs          longest an acknowledgement waits for a data frame to ride on
 * @param rtoMinNs            first retransmission timeout
 * @param rtoMaxNs            longest retransmission timeout (the timeout doubles on every expiry)
 * @param rejectBackoffNs     wait before resending frames the receiver rejected for lack of room
 * @param alwaysChecksum      compute CRC32C even when the fabric says it does not corrupt frames
 * @param inlineWholeMessages run a handler on the extracting thread when its whole message has already arrived
 * @param maxFm1MessageBytes  longest FM 1.x {@code send} (its receiver stages the whole message)
 * @param extractWhileWaiting a send that must wait for flow control extracts meanwhile (runs handlers), as FM 2.x's
 *                            FM thread does; without it sends never run handlers, and PEs that are all inside sends
 *                            to each other with full receive queues wait for each other (see the module README)
 * @param idleSpins           spins before yielding, in waiting calls
 * @param idleYields          yields before parking, in waiting calls
 * @param minParkNs           first park, in waiting calls
 * @param maxParkNs           longest park, in waiting calls (bounds how late a waiter notices an abort)
 * @param nicOffload          use the NIC's own handlers and RDMA for NIC messages and RDMA where the fabric offers them;
 *                            false carries them in FM's messages everywhere (to compare, or to test that path)
 * @param rendezvousBytes     a message declared at least this long moves by rendezvous where the NIC does RDMA: a
 *                            small request names the sender's pieces and the receiver's handler pulls each piece by
 *                            RDMA straight into the array it receives into (no frames, no copy at the sender); 0 never
 *                            (every message in frames). Needs {@code nicOffload} and {@code extractWhileWaiting}
 * @param hostStagingBytes    where FM carries RDMA in its own messages (no RDMA in the NIC: Aeron, or
 *                            {@code nicOffload=false}), an RDMA write or read of at least this many bytes between two
 *                            PEs of one host moves through a ring in host memory both map: the bytes are copied into
 *                            it and out of it, and only a short message per piece travels; 0 never
 * @param scheduling          how a job's PE threads in one process share its cores (FM-DCS run slots)
 * @param cores               the cores a job's PE threads in one process may use, 0 for the machine's
 * @param quantumNs           the run slots' quantum: the longest a PE waits for a slot before it runs anyway (DCS),
 *                            or a gang's turn (GANG)
 * @param idleSleepNs         first sleep of a wait while FM has no timer running (nothing unacknowledged, no
 *                            acknowledgement owed): how late a condition another thread sets without a frame or a
 *                            write of the PE's memory is noticed then (never less than {@code maxParkNs}); an abort
 *                            interrupts the sleep
 * @param idleSleepMaxNs      longest such sleep: each one that runs its whole length with nothing arriving doubles the
 *                            next, from {@code idleSleepNs} up to this, so that a PE waiting long wakes rarely; at
 *                            least {@code idleSleepNs}
 * @param spinWaitNs          how long a wait spins while the PE threads that run in this process fit its cores
 *                            (under {@link Scheduling#NONE}): it takes no core another PE wants, and an answer is
 *                            seen within a spin instead of a wake-up; past it, or once the PEs do not fit, it yields
 *                            and sleeps as FM-DCS's waits do; 0 spins only {@code idleSpins} times (the old policy)
 * @param deadlockAfterNs     how long every PE of a job in this JVM must have waited, with nothing in flight and no
 *                            other thread of the program running, before the job is ended as deadlocked with a
 *                            report naming each PE's call ({@link FmDeadlockException}); 0 turns the check off
 */
public record FmConfig(
    int windowFrames,
    int receiveQueueFrames,
    int ackEveryFrames,
    long ackDelayNs,
    long rtoMinNs,
    long rtoMaxNs,
    long rejectBackoffNs,
    boolean alwaysChecksum,
    boolean inlineWholeMessages,
    int maxFm1MessageBytes,
    boolean extractWhileWaiting,
    long idleSpins,
    long idleYields,
    long minParkNs,
    long maxParkNs,
    boolean nicOffload,
    int rendezvousBytes,
    int hostStagingBytes,
    Scheduling scheduling,
    int cores,
    long quantumNs,
    long idleSleepNs,
    long idleSleepMaxNs,
    long spinWaitNs,
    long deadlockAfterNs) {

    /** Largest window or receive queue. */
    public static final int MAX_FRAMES = 1 << 16;
    /** Most cores a job may be given. */
    public static final int MAX_CORES = 1 << 12;

    /** Checks the settings. */
    public FmConfig {
        check("windowFrames", windowFrames, 0, MAX_FRAMES);
        check("receiveQueueFrames", receiveQueueFrames, 0, MAX_FRAMES);
        check("ackEveryFrames", ackEveryFrames, 0, MAX_FRAMES);
        check("maxFm1MessageBytes", maxFm1MessageBytes, 16, Integer.MAX_VALUE - 64);
        check("rendezvousBytes", rendezvousBytes, 0, Integer.MAX_VALUE);
        check("hostStagingBytes", hostStagingBytes, 0, Integer.MAX_VALUE);
        check("cores", cores, 0, MAX_CORES);
        java.util.Objects.requireNonNull(scheduling, "scheduling");
        if (quantumNs < 100_000 || quantumNs > 1_000_000_000) {
            throw new IllegalArgumentException("quantumNs=" + quantumNs + " outside 100 us..1 s");
        }
        if (idleSleepNs < 1_000 || idleSleepNs > 1_000_000_000) {
            throw new IllegalArgumentException("idleSleepNs=" + idleSleepNs + " outside 1 us..1 s");
        }
        if (idleSleepMaxNs < idleSleepNs || idleSleepMaxNs > 10_000_000_000L) {
            throw new IllegalArgumentException("idleSleepMaxNs=" + idleSleepMaxNs + " outside idleSleepNs="
                + idleSleepNs + "..10 s");
        }
        if (spinWaitNs < 0 || spinWaitNs > 60_000_000_000L) {
            throw new IllegalArgumentException("spinWaitNs=" + spinWaitNs + " outside 0..60 s");
        }
        if (deadlockAfterNs != 0 && (deadlockAfterNs < 10_000_000 || deadlockAfterNs > 3_600_000_000_000L)) {
            throw new IllegalArgumentException("deadlockAfterNs=" + deadlockAfterNs + " outside 10 ms..1 h (0: off)");
        }
        if (ackDelayNs < 0 || rejectBackoffNs < 0) {
            throw new IllegalArgumentException("ackDelayNs=" + ackDelayNs + " and rejectBackoffNs=" + rejectBackoffNs
                + " must be >= 0");
        }
        if (rtoMinNs <= 0 || rtoMaxNs < rtoMinNs) {
            throw new IllegalArgumentException("need 0 < rtoMinNs=" + rtoMinNs + " <= rtoMaxNs=" + rtoMaxNs);
        }
        if (idleSpins < 0 || idleYields < 0 || minParkNs <= 0 || maxParkNs < minParkNs || maxParkNs > 100_000_000) {
            throw new IllegalArgumentException("idle settings: need idleSpins=" + idleSpins + " >= 0, idleYields="
                + idleYields + " >= 0, 0 < minParkNs=" + minParkNs + " <= maxParkNs=" + maxParkNs + " <= 100 ms");
        }
    }

    /**
     * The {@code fm.*} options {@link Builder#option(String, String)} accepts, with their types, defaults and
     * meanings: the parser's own table.
     *
     * @return every accepted option, in a stable order
     */
    public static List<FmOption> options() {
        return FmOptions.listed();
    }

    /**
     * Returns the default settings, those of the module README's configuration table (sizes derived from the fabric).
     *
     * @return the defaults
     */
    public static FmConfig defaults() {
        return builder().build();
    }

    /**
     * Starts a builder holding the defaults; each call returns a new, independent builder.
     *
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    private static void check(final String name, final int value, final int min, final int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " outside " + min + ".." + max);
        }
    }

    /**
     * Builds an {@link FmConfig}; every setter takes the record component's meaning. Setters only record their value:
     * ranges are checked by {@link #build()}, and sizes against the fabric when an endpoint opens. Not thread-safe: use
     * a builder on one thread.
     */
    public static final class Builder {
        private int windowFrames;
        private int receiveQueueFrames;
        private int ackEveryFrames;
        // Package-private: FmOptions reads the defaults here and sets the settings that have no single setter.
        long ackDelayNs = 20_000;
        long rtoMinNs = 1_000_000;
        long rtoMaxNs = 32_000_000;
        long rejectBackoffNs = 50_000;
        boolean alwaysChecksum;
        boolean inlineWholeMessages = true;
        int maxFm1MessageBytes = 1 << 20;
        boolean extractWhileWaiting = true;
        long idleSpins = 800;
        long idleYields = 10;
        long minParkNs = 1_000;
        long maxParkNs = 1_000_000;
        boolean nicOffload = true;
        int rendezvousBytes = 32 << 10;
        int hostStagingBytes = 16 << 10;
        Scheduling scheduling = Scheduling.NONE;
        int cores;
        long quantumNs = 10_000_000;
        long idleSleepNs = 20_000_000;
        long idleSleepMaxNs = 160_000_000;
        long spinWaitNs = 1_000_000_000;
        long deadlockAfterNs = 1_000_000_000;

        private Builder() {
        }

        /**
         * Sets the send window: how many data frames this PE may have sent, to all destinations together, that their
         * receivers have not yet acknowledged as accepted. It is also the number of slots of the retransmission store,
         * so it sets the PE's largest buffer ({@code windowFrames * (24 + frameBytes)} bytes). Over a fabric that is
         * reliable end to end no copies are kept and the window does not hold sends back.
         *
         * @param v frames, 0 to derive {@code min(32, max(2, poolFrames / 4))}; {@link #build()} accepts 0 to
         *          {@link FmConfig#MAX_FRAMES}, and an endpoint refuses more than half the fabric's {@code poolFrames}
         * @return this
         */
        public Builder windowFrames(final int v) {
            windowFrames = v;
            return this;
        }

        /**
         * Sets the receive queue: how many arrived frames a PE holds (by reference, no copy) for its next extract while
         * it does something else. When it is full, further frames are rejected back to their sender, which resends them
         * later.
         *
         * @param v frames, 0 to derive {@code max(1, receiveRingCapacity / 2)}; {@link #build()} accepts 0 to
         *          {@link FmConfig#MAX_FRAMES}, and an endpoint refuses more than half the fabric's
         *          {@code receiveRingCapacity}
         * @return this
         */
        public Builder receiveQueueFrames(final int v) {
            receiveQueueFrames = v;
            return this;
        }

        /**
         * Sets how many frames accepted from one sender may wait for an acknowledgement: once that many are
         * unacknowledged, and no data frame going back has carried the acknowledgement, an explicit ACK goes at once.
         *
         * @param v frames, 0 to derive {@code max(1, windowFrames / 2)}; {@link #build()} accepts 0 to
         *          {@link FmConfig#MAX_FRAMES}
         * @return this
         */
        public Builder ackEveryFrames(final int v) {
            ackEveryFrames = v;
            return this;
        }

        /**
         * Sets the longest an owed acknowledgement waits for a data frame to ride on before it goes as an explicit ACK
         * frame; default 20 microseconds.
         *
         * @param v nanoseconds, at least 0 (checked by {@link #build()})
         * @return this
         */
        public Builder ackDelayNs(final long v) {
            ackDelayNs = v;
            return this;
        }

        /**
         * Sets the retransmission timeout: when the oldest unacknowledged frame of a pair has waited {@code min}, it
         * and the frames after it are resent, and the timeout doubles on every expiry up to {@code max}; an
         * acknowledgement that frees frames resets it to {@code min}. Defaults 1 ms and 32 ms.
         *
         * @param min first timeout ns, more than 0
         * @param max longest timeout ns, at least {@code min} (both checked by {@link #build()})
         * @return this
         */
        public Builder rto(final long min, final long max) {
            rtoMinNs = min;
            rtoMaxNs = max;
            return this;
        }

        /**
         * Sets how long a sender waits before resending frames its receiver rejected because its receive queue was full
         * (FM 1.0's return-to-sender); default 50 microseconds.
         *
         * @param v nanoseconds, at least 0 (checked by {@link #build()})
         * @return this
         */
        public Builder rejectBackoffNs(final long v) {
            rejectBackoffNs = v;
            return this;
        }

        /**
         * Chooses whether every frame gets a CRC32C even on a fabric that says it does not corrupt frames; by default
         * (false) only fabrics that may corrupt frames pay for checksums.
         *
         * @param v checksum on reliable fabrics too
         * @return this
         */
        public Builder alwaysChecksum(final boolean v) {
            alwaysChecksum = v;
            return this;
        }

        /**
         * Chooses whether extract, given the first frame of a message of several frames, looks ahead for the rest
         * (waiting up to about 20 microseconds when the message fits the receive queue) and, when all of it is there,
         * runs the handler on the extracting thread (the default); otherwise that handler runs on a virtual thread. A
         * message of one frame always runs inline.
         *
         * @param v run whole messages inline
         * @return this
         */
        public Builder inlineWholeMessages(final boolean v) {
            inlineWholeMessages = v;
            return this;
        }

        /**
         * Sets the longest message FM 1.x {@code send} accepts, and so the largest array a receiver allocates to stage
         * a 1.x message that spans frames; default 1 MiB.
         *
         * @param v bytes, 16 to {@code Integer.MAX_VALUE - 64} (checked by {@link #build()})
         * @return this
         */
        public Builder maxFm1MessageBytes(final int v) {
            maxFm1MessageBytes = v;
            return this;
        }

        /**
         * Chooses whether a send that must wait for flow control extracts meanwhile, running handlers (the default, as
         * FM 2.x's FM thread does). With it off, sends never run handlers, but PEs that all send to each other with
         * full receive queues can then wait for each other forever (see the module README).
         *
         * @param v extract while a send waits for flow control
         * @return this
         */
        public Builder extractWhileWaiting(final boolean v) {
            extractWhileWaiting = v;
            return this;
        }

        /**
         * Sets how FM's waiting calls wait while nothing happens: spin {@code spins} times, then yield {@code yields}
         * times, then park, from {@code minPark} doubling up to {@code maxPark}; any work resets the sequence. A PE that
         * another PE waits to run on its core skips the spins and yields and blocks at once (see {@link Scheduling}).
         * Defaults 800 (about 20 microseconds, what waking a parked thread costs on the machine it was measured on),
         * 10, 1 microsecond and 1 ms.
         *
         * @param spins   spins, at least 0
         * @param yields  yields, at least 0
         * @param minPark ns, the first park, more than 0
         * @param maxPark ns, the longest park, {@code minPark} to 100 ms: it bounds how late a waiter notices an abort
         *                (all four are checked by {@link #build()})
         * @return this
         */
        public Builder idle(final long spins, final long yields, final long minPark, final long maxPark) {
            idleSpins = spins;
            idleYields = yields;
            minParkNs = minPark;
            maxParkNs = maxPark;
            return this;
        }

        /**
         * Sets whether NIC messages and RDMA use the fabric NIC's own handlers and RDMA where it has them (the
         * default) or FM's messages everywhere.
         *
         * @param v true to use the NIC
         * @return this
         */
        public Builder nicOffload(final boolean v) {
            nicOffload = v;
            return this;
        }

        /**
         * Sets the length from which a message moves by rendezvous (RDMA from the sender's arrays into the receiver's)
         * where the NIC does RDMA; 0 keeps every message in frames.
         *
         * @param v bytes, at least 0
         * @return this
         */
        public Builder rendezvousBytes(final int v) {
            rendezvousBytes = v;
            return this;
        }

        /**
         * Sets the size from which RDMA carried in FM's messages moves through host memory between two PEs of one
         * host (a ring each sender keeps for each receiver, in memory both map): the bytes are copied into the ring
         * and out of it, and each piece travels as a short message, instead of the bytes travelling in frames.
         *
         * @param v bytes, at least 0 (0: never)
         * @return this
         */
        public Builder hostStagingBytes(final int v) {
            hostStagingBytes = v;
            return this;
        }

        /**
         * Sets how the job's PE threads in one process share its cores, and how many cores that is.
         *
         * @param policy    {@link Scheduling#NONE} (the default), {@code DCS} or {@code GANG}
         * @param coreCount cores, 0 (the default) for the machine's, up to {@link FmConfig#MAX_CORES}
         * @param quantum   ns, 100 us to 1 s (default 10 ms): the longest a PE waits for a run slot before it runs
         *                  anyway (DCS), or a gang's turn (GANG) (checked by {@link #build()})
         * @return this
         */
        public Builder scheduling(final Scheduling policy, final int coreCount, final long quantum) {
            scheduling = policy;
            cores = coreCount;
            quantumNs = quantum;
            return this;
        }

        /**
         * Sets one setting by its option name ({@code fm.windowFrames}, ...: {@link FmConfig#options()} lists them
         * with their types and defaults), for layers above that pass {@code key=value} strings through.
         *
         * @param key   the option's full name, {@code fm.} prefix included
         * @param value its value ({@code auto} for a derived size)
         * @return this
         * @throws IllegalArgumentException naming the key if it is unknown or its value cannot be parsed; nothing is
         *                                  changed then (ranges are checked by {@link #build()})
         */
        public Builder option(final String key, final String value) {
            FmOptions.apply(this, key, value);
            return this;
        }

        /**
         * Checks the settings and makes the config; the builder may be changed and used again afterwards. Sizes are
         * checked against the fabric only when an endpoint opens.
         *
         * @return the validated config
         * @throws IllegalArgumentException naming the setting that is out of range
         */
        public FmConfig build() {
            return new FmConfig(windowFrames, receiveQueueFrames, ackEveryFrames, ackDelayNs, rtoMinNs, rtoMaxNs,
                rejectBackoffNs, alwaysChecksum, inlineWholeMessages, maxFm1MessageBytes, extractWhileWaiting,
                idleSpins, idleYields, minParkNs, maxParkNs, nicOffload, rendezvousBytes, hostStagingBytes, scheduling,
                cores, quantumNs, idleSleepNs, idleSleepMaxNs, spinWaitNs, deadlockAfterNs);
        }
    }
}
