package org.jhpvm.apps;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@code jhpvm} commands through {@link Main#execute} and keeps what they print, for the command tests. */
final class Commands {
    private Commands() {
    }

    /**
     * What a command did.
     *
     * @param exitCode its exit code
     * @param out      what it printed
     */
    record Run(int exitCode, String out) {
    }

    /** Runs a command; {@code out} holds its standard output. */
    static Run run(final String... args) {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            final int code = Main.execute(args);
            return new Run(code, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(saved);
        }
    }

    /** As {@link #run}, the standard error stream in {@code out} too (where usage errors go). */
    static Run runWithErrors(final String... args) {
        final PrintStream saved = System.err;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            final Run r = run(args);
            return new Run(r.exitCode(), r.out() + bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(saved);
        }
    }
}
