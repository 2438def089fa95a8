package org.jhpvm.fabric;

import java.util.List;
import java.util.Objects;

/**
 * The emulated fabric's settings, validated once by {@link Builder#build()}; an error names the setting to fix.
 * Immutable.
 *
 * @param nicCount            number of NICs (nodes)
 * @param frameBytes          payload capacity of a frame (the MTU)
 * @param headerBytes         opaque header area per frame, for the layer above
 * @param sendRingCapacity    frames the host can queue for its NIC
 * @param receiveRingCapacity frames a NIC can hold for its host; a full ring back-pressures senders
 * @param inlineBytes         frames with at most this much payload are copied into a receive slot at the switch
 *                            (programmed I/O); larger ones travel by reference (DMA). 0 sends all by reference
 * @param poolFrames          frames in each NIC's pool
 * @param spareFrames         frames each NIC keeps for the copies fault injection duplicates
 * @param pumpBudget          most frames one NIC turn moves
 * @param maxHoldNs           longest a reordered frame waits to be overtaken
 * @param faultPlan           faults to inject
 * @param idleSpins           spins before yielding, in waiting calls
 * @param idleYields          yields before parking, in waiting calls
 * @param minParkNs           first park, in waiting calls
 * @param maxParkNs           longest park, in waiting calls (bounds how late a waiter notices a close)
 * @param completionQueueCapacity completions a NIC's completion queue holds: requests posted and not yet polled
 * @param rdmaSegmentBytes    bytes per segment of an RDMA transfer on the NIC's reliable connection: the unit the fault
 *                            plan drops, corrupts or duplicates and the protocol sends again
 * @param clock               the clock the fabric keeps: the wall clock, or a modelled machine's virtual clock
 */
public record FabricConfig(
    int nicCount,
    int frameBytes,
    int headerBytes,
    int sendRingCapacity,
    int receiveRingCapacity,
    int inlineBytes,
    int poolFrames,
    int spareFrames,
    int pumpBudget,
    long maxHoldNs,
    FaultPlan faultPlan,
    long idleSpins,
    long idleYields,
    long minParkNs,
    long maxParkNs,
    int completionQueueCapacity,
    int rdmaSegmentBytes,
    ClockSettings clock) {

    /** Default payload bytes per frame, chosen by measurement (see the module README). */
    public static final int DEFAULT_FRAME_BYTES = 16384;
    /** Default opaque header area per frame. */
    public static final int DEFAULT_HEADER_BYTES = 32;
    /** Default ring capacity (send and receive). */
    public static final int DEFAULT_RING_CAPACITY = 32;
    /** Default largest payload copied at the switch instead of passed by reference. */
    public static final int DEFAULT_INLINE_BYTES = 1024;
    /** Largest number of NICs. */
    public static final int MAX_NICS = 1 << 16;
    /** Largest ring capacity or pool size. */
    public static final int MAX_RING_CAPACITY = 1 << 20;
    /** Default spare frames per NIC for duplicates. */
    public static final int DEFAULT_SPARE_FRAMES = 2;
    /** Default longest wait of a reordered frame. */
    public static final long DEFAULT_MAX_HOLD_NS = 200_000;
    /** Default spins before yielding, in waiting calls. */
    public static final long DEFAULT_IDLE_SPINS = 200;
    /** Default yields before parking, in waiting calls. */
    public static final long DEFAULT_IDLE_YIELDS = 20;
    /** Default first park, in waiting calls. */
    public static final long DEFAULT_MIN_PARK_NS = 1_000;
    /** Default longest park, in waiting calls. */
    public static final long DEFAULT_MAX_PARK_NS = 1_000_000;
    /** Default completions a NIC's completion queue holds. */
    public static final int DEFAULT_COMPLETION_QUEUE_CAPACITY = 1024;
    /** Default bytes per RDMA segment on the NIC's reliable connection. */
    public static final int DEFAULT_RDMA_SEGMENT_BYTES = 64 * 1024;
    /** Default seed of a fault plan made from options. */
    public static final long DEFAULT_FAULT_SEED = 1;

    /** Checks the settings; see {@link Builder#build()}. */
    public FabricConfig {
        Objects.requireNonNull(faultPlan, "faultPlan");
        Objects.requireNonNull(clock, "clock");
        check("nicCount", nicCount, 1, MAX_NICS);
        check("frameBytes", frameBytes, 1, FrameDescriptor.MAX_FRAME_BYTES);
        check("headerBytes", headerBytes, 0, FrameDescriptor.MAX_HEADER_BYTES);
        check("sendRingCapacity", sendRingCapacity, 1, MAX_RING_CAPACITY);
        check("receiveRingCapacity", receiveRingCapacity, 1, MAX_RING_CAPACITY);
        check("inlineBytes", inlineBytes, 0, frameBytes);
        check("poolFrames", poolFrames, 1, MAX_RING_CAPACITY);
        check("spareFrames", spareFrames, 1, 1024);
        check("pumpBudget", pumpBudget, 1, MAX_RING_CAPACITY);
        check("completionQueueCapacity", completionQueueCapacity, 1, MAX_RING_CAPACITY);
        check("rdmaSegmentBytes", rdmaSegmentBytes, 64, 1 << 30);
        if (maxHoldNs < 0) {
            throw new IllegalArgumentException("maxHoldNs=" + maxHoldNs + " is negative");
        }
        if (idleSpins < 0 || idleYields < 0 || minParkNs <= 0 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("idle settings: need idleSpins=" + idleSpins + " >= 0, idleYields="
                + idleYields + " >= 0, 0 < minParkNs=" + minParkNs + " <= maxParkNs=" + maxParkNs);
        }
        for (final LinkDownWindow w : faultPlan.linkDown()) {
            if (w.nic() >= nicCount) {
                throw new IllegalArgumentException("link-down window nic=" + w.nic() + " outside nicCount="
                    + nicCount);
            }
        }
    }

    /**
     * Starts the settings of a fabric of {@code nicCount} NICs. Nothing is checked until {@link Builder#build()},
     * which requires {@code 1 .. MAX_NICS} NICs.
     *
     * @param nicCount number of NICs
     * @return a builder with every other setting at its default
     */
    public static Builder builder(final int nicCount) {
        return new Builder(nicCount);
    }

    /**
     * The options {@link Builder#option(String, String)} accepts, with their types, defaults and meanings: the
     * parser's own table.
     *
     * @return every accepted option, in a stable order
     */
    public static List<FabricOption> options() {
        return FabricOptions.listed();
    }

    /**
     * Makes the idle strategy a NIC's waiting calls use: {@code idleSpins} spins, {@code idleYields} yields, then
     * parks from {@code minParkNs} doubling up to {@code maxParkNs}. A new instance on every call, because a
     * strategy is not thread-safe.
     *
     * @return a new idle strategy with these settings, for one waiting thread
     */
    public BackoffIdleStrategy newIdleStrategy() {
        return new BackoffIdleStrategy(idleSpins, idleYields, minParkNs, maxParkNs);
    }

    /**
     * The bytes one frame takes at full payload: the fabric's 16-byte header, the opaque header area and
     * {@code frameBytes}. The array a {@link Frame} allocates is larger by the padding around the frame (see
     * {@link Frame#arrayBytes(int, int)}).
     *
     * @return bytes of one frame's array: fabric header, opaque header and payload
     */
    public int frameArrayBytes() {
        return FrameDescriptor.payloadOffset(headerBytes) + frameBytes;
    }

    private static void check(final String name, final int value, final int min, final int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " outside " + min + ".." + max);
        }
    }

    /** Builds a {@link FabricConfig}. Not thread-safe. */
    public static final class Builder {
        private final int nicCount;
        private int frameBytes = DEFAULT_FRAME_BYTES;
        private int headerBytes = DEFAULT_HEADER_BYTES;
        private int sendRingCapacity = DEFAULT_RING_CAPACITY;
        private int receiveRingCapacity = DEFAULT_RING_CAPACITY;
        private int inlineBytes = -1;
        private int poolFrames = -1;
        private int spareFrames = DEFAULT_SPARE_FRAMES;
        private int pumpBudget = -1;
        private long maxHoldNs = DEFAULT_MAX_HOLD_NS;
        private FaultPlan faultPlan = FaultPlan.none();
        long idleSpins = DEFAULT_IDLE_SPINS;
        long idleYields = DEFAULT_IDLE_YIELDS;
        long minParkNs = DEFAULT_MIN_PARK_NS;
        long maxParkNs = DEFAULT_MAX_PARK_NS;
        private long faultSeed = DEFAULT_FAULT_SEED;
        private boolean virtualClock;
        private String machine = ClockSettings.DEFAULT_MACHINE;
        private final java.util.Map<String, String> switches = new java.util.LinkedHashMap<>();
        private boolean measuredCpu = true;
        private String looks = ClockSettings.AUTO_LOOKS;
        int completionQueueCapacity = DEFAULT_COMPLETION_QUEUE_CAPACITY;
        int rdmaSegmentBytes = DEFAULT_RDMA_SEGMENT_BYTES;
        private final double[] faultP = new double[4];

        private Builder(final int nicCount) {
            this.nicCount = nicCount;
        }

        /**
         * Sets the payload capacity of every frame, the MTU (default {@value #DEFAULT_FRAME_BYTES}); checked by
         * {@link #build()}: {@code 1 .. FrameDescriptor.MAX_FRAME_BYTES}. The default of {@link #inlineBytes(int)}
         * follows it.
         *
         * @param bytes payload capacity per frame
         * @return this
         */
        public Builder frameBytes(final int bytes) {
            frameBytes = bytes;
            return this;
        }

        /**
         * Sets the size of the opaque header area every frame carries for the layer above (default
         * {@value #DEFAULT_HEADER_BYTES}); checked by {@link #build()}: {@code 0 .. FrameDescriptor.MAX_HEADER_BYTES}.
         *
         * @param bytes opaque header area per frame
         * @return this
         */
        public Builder headerBytes(final int bytes) {
            headerBytes = bytes;
            return this;
        }

        /**
         * Sets how many frames a host can queue for its NIC before {@link Nic#trySend(Frame)} returns false (default
         * {@value #DEFAULT_RING_CAPACITY}); checked by {@link #build()}: {@code 1 .. MAX_RING_CAPACITY}. The defaults
         * of {@link #poolFrames(int)} and {@link #pumpBudget(int)} follow it.
         *
         * @param frames send ring capacity
         * @return this
         */
        public Builder sendRingCapacity(final int frames) {
            sendRingCapacity = frames;
            return this;
        }

        /**
         * Sets how many delivered frames a NIC holds for its host before senders to it wait (default
         * {@value #DEFAULT_RING_CAPACITY}); checked by {@link #build()}: {@code 1 .. MAX_RING_CAPACITY}. The default
         * of {@link #poolFrames(int)} follows it.
         *
         * @param frames receive ring capacity
         * @return this
         */
        public Builder receiveRingCapacity(final int frames) {
            receiveRingCapacity = frames;
            return this;
        }

        /**
         * Sets where the switch stops copying frames (programmed I/O) and passes them by reference instead (DMA);
         * checked by {@link #build()}: {@code 0 .. frameBytes}.
         *
         * @param bytes largest payload copied into a receive slot at the switch (default: the smaller of
         *              {@value #DEFAULT_INLINE_BYTES} and the frame size); 0 passes every frame by reference
         * @return this
         */
        public Builder inlineBytes(final int bytes) {
            inlineBytes = bytes;
            return this;
        }

        /**
         * Sets how many frames each NIC can have out at once, acquired and not yet given back; checked by
         * {@link #build()}: {@code 1 .. MAX_RING_CAPACITY}.
         *
         * @param frames frames per NIC pool (default: send plus receive ring capacity)
         * @return this
         */
        public Builder poolFrames(final int frames) {
            poolFrames = frames;
            return this;
        }

        /**
         * Sets how many frames each NIC keeps aside for the extra copies fault injection delivers (default
         * {@value #DEFAULT_SPARE_FRAMES}); checked by {@link #build()}: {@code 1 .. 1024}.
         *
         * @param frames spare frames per NIC for duplicates
         * @return this
         */
        public Builder spareFrames(final int frames) {
            spareFrames = frames;
            return this;
        }

        /**
         * Sets how many frames one turn of a NIC's engine may move before it returns to its caller, which bounds the
         * time a send, poll or progress call spends on other frames; checked by {@link #build()}:
         * {@code 1 .. MAX_RING_CAPACITY}.
         *
         * @param frames most frames one NIC turn moves (default: the send ring capacity)
         * @return this
         */
        public Builder pumpBudget(final int frames) {
            pumpBudget = frames;
            return this;
        }

        /**
         * Sets how long a frame that fault injection reorders is held back when no later frame on its path comes to
         * overtake it; after that it goes in order (default {@link #DEFAULT_MAX_HOLD_NS}, 200 microseconds).
         * Checked by {@link #build()}: not negative.
         *
         * @param ns longest a reordered frame waits to be overtaken
         * @return this
         */
        public Builder maxHoldNs(final long ns) {
            maxHoldNs = ns;
            return this;
        }

        /**
         * Sets the faults to inject (default {@link FaultPlan#none()}), replacing any plan made from fault options
         * before. Checked by {@link #build()}: not null, and its link-down windows name NICs below
         * {@code nicCount}.
         *
         * @param plan faults to inject
         * @return this
         */
        public Builder faultPlan(final FaultPlan plan) {
            faultPlan = plan;
            return this;
        }

        /**
         * Sets how the fabric's waiting calls wait (see {@link BackoffIdleStrategy}): by default 200 spins, 20 yields,
         * then parks from 1 microsecond doubling to 1 ms (the {@code DEFAULT_IDLE_*} and {@code DEFAULT_*_PARK_NS}
         * constants). The longest park bounds how late a waiter notices a close. Checked by {@link #build()}: counts
         * not negative, {@code 0 < minParkNs <= maxParkNs}.
         *
         * @param spins     spins before yielding
         * @param yields    yields before parking
         * @param minParkNs first park, in nanoseconds
         * @param maxParkNs longest park, in nanoseconds
         * @return this
         */
        public Builder idle(final long spins, final long yields, final long minParkNs, final long maxParkNs) {
            this.idleSpins = spins;
            this.idleYields = yields;
            this.minParkNs = minParkNs;
            this.maxParkNs = maxParkNs;
            return this;
        }

        /**
         * Sets how many completions a NIC's completion queue holds (default
         * {@value FabricConfig#DEFAULT_COMPLETION_QUEUE_CAPACITY}); {@link #build()} checks it is 1 or more.
         *
         * @param capacity completions
         * @return this
         */
        public Builder completionQueueCapacity(final int capacity) {
            completionQueueCapacity = capacity;
            return this;
        }

        /**
         * Sets the bytes per segment of an RDMA transfer on the NIC's reliable connection (default
         * {@value FabricConfig#DEFAULT_RDMA_SEGMENT_BYTES}); {@link #build()} checks it is 64 .. 2^30.
         *
         * @param bytes bytes per segment
         * @return this
         */
        public Builder rdmaSegmentBytes(final int bytes) {
            rdmaSegmentBytes = bytes;
            return this;
        }

        /**
         * Sets one option by name, for layers above that must not name fabric types (they pass
         * {@code key=value} strings through). The keys, their types and defaults are listed by
         * {@link FabricConfig#options()}: the ring and frame sizes, the idle settings, and a fault plan made from
         * {@code faults.seed}, {@code faults.drop}, {@code faults.corrupt}, {@code faults.duplicate},
         * {@code faults.reorder} (probabilities 0..1); a fault option replaces any {@link #faultPlan} set before.
         *
         * @param key   option name
         * @param value its value
         * @return this
         * @throws IllegalArgumentException naming the key if it is unknown or its value is not valid; nothing is
         *                                  changed then
         */
        public Builder option(final String key, final String value) {
            FabricOptions.apply(this, key, value);
            return this;
        }

        void faultSeed(final long seed) {
            faultSeed = seed;
            rebuildFaultPlan();
        }

        void faultProbability(final int which, final String value) {
            faultP[which] = FabricOptions.probability(value);
            rebuildFaultPlan();
        }

        private void rebuildFaultPlan() {
            // Without a fault the seed decides nothing: the plan is none(), as when no fault option is given.
            final boolean anyFault = faultP[0] > 0 || faultP[1] > 0 || faultP[2] > 0 || faultP[3] > 0;
            faultPlan = !anyFault ? FaultPlan.none() : FaultPlan.builder(faultSeed).drop(faultP[0]).corrupt(faultP[1]).duplicate(faultP[2])
                .reorder(faultP[3]).build();
        }

        /**
         * Makes the config: derives the settings left at their automatic default (pool frames, pump budget, inline
         * bytes) from the others, then checks every setting. The builder is unchanged and may build again.
         *
         * @return the validated config
         * @throws IllegalArgumentException naming the first setting out of range
         * @throws NullPointerException     if the fault plan was set to null
         */
        public FabricConfig build() {
            final int pool = poolFrames == -1 ? sendRingCapacity + receiveRingCapacity : poolFrames;
            final int budget = pumpBudget == -1 ? sendRingCapacity : pumpBudget;
            final int inline = inlineBytes == -1 ? Math.min(DEFAULT_INLINE_BYTES, frameBytes) : inlineBytes;
            return new FabricConfig(nicCount, frameBytes, headerBytes, sendRingCapacity, receiveRingCapacity, inline,
                pool,
                spareFrames, budget, maxHoldNs, faultPlan, idleSpins, idleYields, minParkNs, maxParkNs,
                completionQueueCapacity, rdmaSegmentBytes, new ClockSettings(virtualClock, machine, switches,
                measuredCpu, looks));
        }

        /**
         * Sets the clock: the wall clock, or the virtual clock of a modelled machine.
         *
         * @param settings the clock
         * @return this
         */
        public Builder clock(final ClockSettings settings) {
            virtualClock = settings.virtual();
            machine = settings.machine();
            switches.clear();
            switches.putAll(settings.switches());
            measuredCpu = settings.measured();
            looks = settings.looks();
            return this;
        }

        void clockMode(final String value) {
            virtualClock = switch (value) {
                case "wall" -> false;
                case "virtual" -> true;
                default -> throw new IllegalArgumentException("must be wall or virtual");
            };
        }

        void machine(final String value) {
            if (value.isEmpty()) {
                throw new IllegalArgumentException("names no machine");
            }
            machine = value;
        }

        void modelSwitch(final String name, final String choice) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("needs a switch name");
            }
            if (choice.isEmpty() || choice.equals("default")) {
                switches.remove(name); // back to the machine's default
            } else {
                switches.put(name, choice);
            }
        }

        void looks(final String value) {
            looks = ClockSettings.checkLooks(value);
        }

        void cpu(final String value) {
            measuredCpu = switch (value) {
                case "measured" -> true;
                case "declared" -> false;
                default -> throw new IllegalArgumentException("must be measured or declared");
            };
        }
    }
}
