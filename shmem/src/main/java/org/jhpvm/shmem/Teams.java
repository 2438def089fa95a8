package org.jhpvm.shmem;

import java.util.function.BooleanSupplier;

/**
 * Collective state per team on one PE: arrival counters per (counter, sender's team rank), the value each
 * arrival carried (a count, checked against this PE's own), and one inbox per sender for reductions. Counting per
 * sender is exact because FM delivers each sender's messages in order: the k-th wait on (counter, sender) is
 * satisfied by that sender's k-th arrival and no other. State is created on first use, by the PE's own call or by
 * an early arrival, so a fast PE may signal a team this PE has not finished creating.
 */
final class Teams {
    static final int BARRIER = 0;
    static final int BCAST = 1;
    static final int COLLECT = 2;
    static final int ALLTOALL = 3;
    static final int REDUCE = 4;
    static final int RESULT = 5;
    static final int COUNTERS = 6;
    /** What {@link #await} returns when the carried value is no longer known. */
    static final long UNKNOWN = Long.MIN_VALUE;
    private static final int CARRIED = 8;

    private static final class State {
        long[][] arrived = new long[COUNTERS][];
        long[][] expected = new long[COUNTERS][];
        long[][] carried = new long[COUNTERS][];
        Object[] inbox = new Object[0];
        int[] inboxCount = new int[0];
        Kind[] inboxKind = new Kind[0];
    }

    private final Engine engine;
    private State[] states = new State[8];
    private int nextId = 1;

    private static final String[] COUNTER_NAMES = {"barrier", "broadcast", "collect", "alltoall", "reduction",
        "reduction's result"};

    private State waitState;
    private int waitTeam;
    private int waitCounter;
    private int waitRank;
    private long waitTarget;
    private final BooleanSupplier arrivedEnough = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            final long[] r = waitState.arrived[waitCounter];
            return r != null && waitRank < r.length && r[waitRank] >= waitTarget;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append(waitTeam == 0 ? "PE " : "rank ").append(waitRank).append(" of the ")
                .append(waitTeam == 0 ? "world team" : "team #" + waitTeam).append(" to reach the same ")
                .append(COUNTER_NAMES[waitCounter]).append(" (number ").append(waitTarget).append(" of this team)");
        }
    };

    Teams(final Engine engine) {
        this.engine = engine;
    }

    /** A fresh team id greater than any this PE has used (the callers agree on the maximum over the parent). */
    int proposeId() {
        return nextId;
    }

    void idAgreed(final int id) {
        nextId = Math.max(nextId, id + 1);
    }

    private State state(final int teamId) {
        if (teamId >= states.length) {
            final State[] grown = new State[Math.max(teamId + 1, 2 * states.length)];
            System.arraycopy(states, 0, grown, 0, states.length);
            states = grown;
        }
        State s = states[teamId];
        if (s == null) {
            s = new State();
            states[teamId] = s;
        }
        return s;
    }

    private static long[] row(final long[][] rows, final int counter, final int rank) {
        long[] r = rows[counter];
        if (r == null || rank >= r.length) {
            final long[] grown = new long[Math.max(rank + 1, r == null ? 8 : 2 * r.length)];
            if (r != null) {
                System.arraycopy(r, 0, grown, 0, r.length);
            }
            rows[counter] = grown;
            r = grown;
        }
        return r;
    }

    /** An arrival (handler side, or a PE signalling itself), carrying the sender's count. */
    void arrive(final int teamId, final int counter, final int senderRank, final long carriedValue) {
        if (teamId < 0 || counter < 0 || counter >= COUNTERS || senderRank < 0) {
            return;
        }
        final State s = state(teamId);
        final long n = row(s.arrived, counter, senderRank)[senderRank]++;
        row(s.carried, counter, senderRank * CARRIED + CARRIED - 1)[senderRank * CARRIED + (int) (n % CARRIED)] =
            carriedValue;
    }

    /**
     * Waits for the next arrival from {@code senderRank} on {@code counter} (extracting meanwhile); the caller has
     * entered the engine.
     *
     * @return the value that arrival carried
     */
    long await(final int teamId, final int counter, final int senderRank) {
        final State s = state(teamId);
        final long target = ++row(s.expected, counter, senderRank)[senderRank];
        final State savedState = waitState;
        final int savedTeam = waitTeam;
        final int savedCounter = waitCounter;
        final int savedRank = waitRank;
        final long savedTarget = waitTarget;
        try {
            do {
                waitState = s;
                waitTeam = teamId;
                waitCounter = counter;
                waitRank = senderRank;
                waitTarget = target;
            } while (!engine.awaitTurn(arrivedEnough));
        } finally {
            waitState = savedState;
            waitTeam = savedTeam;
            waitCounter = savedCounter;
            waitRank = savedRank;
            waitTarget = savedTarget;
        }
        // The value of arrival number target-1, unless the sender has since run more than CARRIED arrivals ahead
        // and overwritten it (then it is unknown: no check rather than a false one).
        if (s.arrived[counter][senderRank] - target >= CARRIED) {
            return UNKNOWN;
        }
        return s.carried[counter][senderRank * CARRIED + (int) ((target - 1) % CARRIED)];
    }

    /** The inbox for a sender's reduction data, sized for {@code count} elements of {@code kind}. */
    Object inbox(final int teamId, final int senderRank, final Kind kind, final int count) {
        final State s = state(teamId);
        if (senderRank >= s.inbox.length) {
            final Object[] grown = new Object[Math.max(senderRank + 1, 2 * s.inbox.length)];
            System.arraycopy(s.inbox, 0, grown, 0, s.inbox.length);
            s.inbox = grown;
            final int[] counts = new int[grown.length];
            System.arraycopy(s.inboxCount, 0, counts, 0, s.inboxCount.length);
            s.inboxCount = counts;
            final Kind[] kinds = new Kind[grown.length];
            System.arraycopy(s.inboxKind, 0, kinds, 0, s.inboxKind.length);
            s.inboxKind = kinds;
        }
        Object box = s.inbox[senderRank];
        if (box == null || s.inboxKind[senderRank] != kind || Kind.length(box) < count) {
            box = kind.newArray(Math.max(count, 16));
            s.inbox[senderRank] = box;
            s.inboxKind[senderRank] = kind;
        }
        s.inboxCount[senderRank] = count;
        return box;
    }

    Object inboxOf(final int teamId, final int senderRank) {
        return state(teamId).inbox[senderRank];
    }

    int inboxCount(final int teamId, final int senderRank) {
        return state(teamId).inboxCount[senderRank];
    }

    void destroy(final int teamId) {
        if (teamId < states.length) {
            states[teamId] = null;
        }
    }
}
