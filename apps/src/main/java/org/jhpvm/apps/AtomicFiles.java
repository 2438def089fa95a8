package org.jhpvm.apps;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files that appear whole or not at all: the content goes to a temporary file beside the target, which is then
 * moved over it in one step, so a reader (or a restart after a crash) sees either the old file or the complete new
 * one, never half of one. The hydro code's snapshots, checkpoints and decks are written this way.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Writes a file's content. */
    public interface Content {
        /**
         * Writes the content.
         *
         * @param out where it goes (closed by the caller)
         * @throws IOException if it cannot be written
         */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code target} through a temporary file in its directory (created if missing) moved over it when
     * complete; on failure the temporary file is removed and {@code target} is as it was.
     *
     * @param target  the file
     * @param content what to write
     * @throws IOException if it cannot be written or moved
     */
    public static void write(final Path target, final Content content) throws IOException {
        final Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        final Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
                content.writeTo(out);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
