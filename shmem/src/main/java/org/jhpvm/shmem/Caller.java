package org.jhpvm.shmem;

/**
 * What one calling thread of a PE carries through its SHMEM calls: how deep it is in nested calls, the contexts it
 * has put in use ({@link ShmemCtx#use()} scopes are per thread) and its collectives' scratch. At thread levels
 * SINGLE and FUNNELED the PE has one caller, its own thread. At SERIALIZED and MULTIPLE each thread that calls gets
 * its own: the {@link Engine} loads a thread's state into its registers (and the context into {@link NicRequests})
 * when the thread takes the endpoint, and stores it back when the thread gives the endpoint up, at the end of its
 * call or, at MULTIPLE, in the middle of a wait that lets the PE's other threads in.
 * <p>
 * Used under the engine's ownership only, except {@link #one}, which only its own thread touches.
 */
final class Caller {
    /** Nested context scopes a thread can have open: every context of the PE once, the default one included. */
    private static final int MAX_SCOPES = ShmemCtx.MAX_CONTEXTS + 1;

    // The engine's registers while another thread owns the endpoint.
    int depth;
    int collectiveDepth;
    int savedDomain;
    int[] savedTeamPes;

    // The context in use (NicRequests' while this thread owns the endpoint).
    int domain;
    int[] teamPes;

    // The scopes open, innermost last: each holds the context in use before it opened.
    private final int[] scopeDomain = new int[MAX_SCOPES];
    private final int[] scopeOuterDomain = new int[MAX_SCOPES];
    private final int[][] scopeOuterTeamPes = new int[MAX_SCOPES][];
    private int scopes;

    /** The collectives' reduction scratch, by {@link Kind} ordinal. */
    final Object[] scratch = new Object[Kind.values().length];

    /** The one-element arrays of this thread's {@code p} and {@code g}, by {@link Kind} ordinal. */
    private final Object[] ones = new Object[Kind.values().length];

    /**
     * A one-element array of the kind, which {@code p} fills before it takes the endpoint and {@code g} reads after
     * giving it back: the only part of a Caller used outside the engine's ownership, by its own thread only.
     */
    Object one(final Kind kind) {
        Object a = ones[kind.ordinal()];
        if (a == null) {
            a = kind.newArray(1);
            ones[kind.ordinal()] = a;
        }
        return a;
    }

    /** Whether this thread has context {@code d} in use in an open scope. */
    boolean inScope(final int d) {
        for (int i = 0; i < scopes; i++) {
            if (scopeDomain[i] == d) {
                return true;
            }
        }
        return false;
    }

    /** Opens a scope of context {@code d}: the context in use now ({@code nic}'s) is kept for its close. */
    void openScope(final int d, final NicRequests nic) {
        scopeDomain[scopes] = d;
        scopeOuterDomain[scopes] = nic.domain;
        scopeOuterTeamPes[scopes] = nic.teamPes;
        scopes++;
    }

    /** Closes the innermost scope: the context in use before it is in use again in {@code nic}. */
    void closeScope(final NicRequests nic) {
        scopes--;
        nic.domain = scopeOuterDomain[scopes];
        nic.teamPes = scopeOuterTeamPes[scopes];
        scopeOuterTeamPes[scopes] = null;
    }

    /** @return the context of the innermost open scope, or -1 if none is open */
    int innermostScope() {
        return scopes == 0 ? -1 : scopeDomain[scopes - 1];
    }
}
