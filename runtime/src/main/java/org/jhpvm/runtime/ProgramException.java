package org.jhpvm.runtime;

/**
 * The user's program could not be started: it does not compile (the message holds the compiler's errors, each with
 * its file and line, as {@code javac} prints them). Nothing ran.
 */
public final class ProgramException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProgramException(final String message) {
        super(message, null, false, false);
    }
}
