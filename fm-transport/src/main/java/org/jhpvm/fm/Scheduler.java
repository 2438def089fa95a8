package org.jhpvm.fm;

import java.util.Objects;
import java.util.function.Supplier;

import org.jhpvm.fm.internal.RunSlots;

/**
 * Run slots that several jobs in one JVM share, as the jobs of an HPVM cluster shared its nodes: the PEs of every job
 * started while the scheduler is shared ({@link #share}) take their run slots from it, whatever their own
 * {@code fm.scheduling} says, so that a DCS or gang policy sees every job's PEs at once. A job that fails ends alone:
 * its PEs leave their slots to the others. Thread-safe.
 */
public final class Scheduler {
    private static final InheritableThreadLocal<Scheduler> SHARED = new InheritableThreadLocal<>();

    private final RunSlots slots;

    private Scheduler(final RunSlots slots) {
        this.slots = slots;
    }

    /**
     * Makes a scheduler.
     *
     * @param policy    how the PEs share the cores
     * @param cores     the cores, 0 for the machine's, up to {@link FmConfig#MAX_CORES}
     * @param quantumNs the quantum, 100 us to 1 s (see {@link FmConfig.Builder#scheduling})
     * @return the scheduler
     * @throws IllegalArgumentException naming the setting out of range
     */
    public static Scheduler create(final Scheduling policy, final int cores, final long quantumNs) {
        final FmConfig c = FmConfig.builder().scheduling(Objects.requireNonNull(policy, "policy"), cores, quantumNs)
            .build();
        return new Scheduler(new RunSlots(c.scheduling(), c.cores(), c.quantumNs()));
    }

    /**
     * Runs {@code action} with this scheduler shared: every FM job that the calling thread, or a thread it starts
     * meanwhile, runs takes its run slots from this scheduler.
     *
     * @param action what to run
     * @param <T>    its result type
     * @return its result
     */
    public <T> T share(final Supplier<T> action) {
        final Scheduler before = SHARED.get();
        SHARED.set(this);
        try {
            return action.get();
        } finally {
            SHARED.set(before);
        }
    }

    /**
     * The policy.
     *
     * @return how the PEs share the cores
     */
    public Scheduling policy() {
        return slots.policy();
    }

    /**
     * The cores.
     *
     * @return the cores the slots stand for
     */
    public int cores() {
        return slots.cores();
    }

    /**
     * Hand-overs so far.
     *
     * @return slots handed from one PE to a waiting one
     */
    public long grants() {
        return slots.grants();
    }

    /**
     * Over-admissions so far.
     *
     * @return PEs that ran beyond the cores after waiting longer than the starvation bound, or at an abort
     */
    public long overAdmissions() {
        return slots.overAdmissions();
    }

    /** The slots a job started now uses: the shared scheduler's, or its own made from its config. */
    static RunSlots slotsFor(final FmConfig config) {
        final Scheduler shared = SHARED.get();
        return shared != null ? shared.slots
            : new RunSlots(config.scheduling(), config.cores(), config.quantumNs());
    }

    @Override
    public String toString() {
        return "Scheduler" + slots;
    }
}
