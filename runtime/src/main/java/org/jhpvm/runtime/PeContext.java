package org.jhpvm.runtime;

/**
 * Which PE of which program run the current thread works for: set on a PE's program thread (running the user's
 * {@code main}) and on the layer job's PE thread while it runs that PE's body. Inherited by threads the user's code
 * starts, so they can ask {@link Jhpvm#pe()} too. Immutable.
 *
 * @param job    the program run
 * @param pe     the PE number in the whole job
 * @param inBody true on a thread running a {@link Jhpvm#shmem} body (a nested call is refused there)
 */
record PeContext(ProgramJob job, int pe, boolean inBody) {
    private static final InheritableThreadLocal<PeContext> CURRENT = new InheritableThreadLocal<>();

    /** @return the calling thread's PE, or null if it works for none */
    static PeContext current() {
        return CURRENT.get();
    }

    /**
     * Makes the calling thread work for a PE.
     *
     * @param context the PE
     */
    static void enter(final PeContext context) {
        CURRENT.set(context);
    }

    /** Ends the calling thread's PE. */
    static void leave() {
        CURRENT.remove();
    }
}
