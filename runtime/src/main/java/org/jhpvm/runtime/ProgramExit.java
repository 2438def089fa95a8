package org.jhpvm.runtime;

/**
 * Ends a PE's program because the job called {@code globalExit(status)} ({@code shmem_global_exit}): thrown on every
 * PE out of {@link Jhpvm#shmem}, so nothing after the call runs, and turned into the run's exit status by the
 * runner. An {@link Error}, so that a program's {@code catch (Exception e)} does not swallow the end of the program.
 */
final class ProgramExit extends Error {
    private static final long serialVersionUID = 1L;

    final int status;

    ProgramExit(final int status) {
        super("globalExit(" + status + ")", null, false, false);
        this.status = status;
    }
}
