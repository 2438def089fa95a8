package org.jhpvm.mpi.internal;

import java.util.ArrayList;

/**
 * A rank's non-blocking collectives in flight ({@link Schedule}s): each is started with its first steps run, then
 * advanced by the rank's later progress until done. The rank's thread only.
 */
final class Schedules {
    private final ArrayList<Schedule> inFlight = new ArrayList<>();
    private final Runnable onFinished;
    private boolean advancing;

    /** @param onFinished run each time a schedule finishes while advanced (the engine notes an event) */
    Schedules(final Runnable onFinished) {
        this.onFinished = onFinished;
    }

    /** Runs the first steps of {@code s} and keeps it if it is not done yet. */
    void start(final Schedule s) {
        s.advance();
        if (!s.done) {
            inFlight.add(s);
        }
    }

    /** @return whether any collective is in flight */
    boolean busy() {
        return !inFlight.isEmpty();
    }

    /**
     * Advances the collectives in flight (not from within one of their own steps).
     *
     * @return true if any of them did something
     */
    boolean advance() {
        if (advancing || inFlight.isEmpty()) {
            return false;
        }
        advancing = true;
        try {
            boolean any = false;
            for (int i = 0; i < inFlight.size(); ) {
                final Schedule s = inFlight.get(i);
                any |= s.advance();
                if (s.done) {
                    inFlight.remove(i);
                    onFinished.run();
                } else {
                    i++;
                }
            }
            return any;
        } finally {
            advancing = false;
        }
    }
}
