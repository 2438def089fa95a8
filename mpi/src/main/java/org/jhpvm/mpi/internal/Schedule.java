package org.jhpvm.mpi.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;


/**
 * A collective as a schedule (libNBC's idea): steps run in order on the rank's thread; a step may post sends and
 * receives, and the next step runs only once everything posted so far has completed. A blocking collective runs its
 * schedule to the end at once; a non-blocking one is handed to {@link Engine#start}, and every later progress of
 * the engine (any wait, test or blocking call of the rank) advances it, as MPI's progress rule asks. The schedule is
 * itself the pending operation its request waits for: done when its last step has run, with the first error of an
 * operation it posted (or of a step) as its error.
 */
public final class Schedule extends Pending {
    /** One step: posts operations with {@link #post}, or combines or copies data. */
    @FunctionalInterface
    public interface Step {
        /**
         * Runs the step.
         *
         * @throws Exception a failure: the schedule ends with it
         */
        void run() throws Exception;
    }

    private final ArrayDeque<Step> steps = new ArrayDeque<>();
    private final ArrayList<Pending> posted = new ArrayList<>();
    /** Why the schedule failed, for its request's error; null while it has not. */
    public String failure;
    /** What a step threw (an MPI error, a user operation's exception), for the waiter to throw; null if none. */
    public Throwable thrown;

    /** An empty schedule: add its steps with {@link #then}. */
    public Schedule() {
        this.source = -1;
        this.tag = -1;
    }

    /**
     * Adds a step at the end.
     *
     * @param step the step
     * @return this schedule
     */
    public Schedule then(final Step step) {
        steps.add(step);
        return this;
    }

    /**
     * Posts an operation from within a step: the next step waits for it.
     *
     * @param p a send or receive the engine has started
     */
    public void post(final Pending p) {
        posted.add(p);
    }

    @Override
    public boolean isReceive() {
        return false;
    }

    /**
     * Runs the steps whose operations before them have completed.
     *
     * @return true if a step ran or the schedule ended
     */
    public boolean advance() {
        boolean any = false;
        while (!done) {
            for (int i = 0; i < posted.size(); i++) {
                final Pending p = posted.get(i);
                if (!p.done) {
                    return any;
                }
                if (p.error != ErrorClasses.SUCCESS) {
                    fail(p.error, p, null);
                    return true;
                }
            }
            posted.clear();
            final Step s = steps.poll();
            any = true;
            if (s == null) {
                done = true;
                return true;
            }
            try {
                s.run();
            } catch (final Exception e) {
                fail(ErrorClasses.ERR_OTHER, null, e); // the waiter gets what it threw
                return true;
            }
        }
        return any;
    }

    private void fail(final int errorClass, final Pending p, final Throwable e) {
        error = errorClass;
        thrown = e;
        failure = p != null ? "an operation of the collective ended with error class " + errorClass + " (rank "
            + p.source + ", tag " + p.tag + "; the ranks called the collective with different counts or types)"
            : String.valueOf(e.getMessage());
        steps.clear();
        posted.clear();
        done = true;
    }
}
