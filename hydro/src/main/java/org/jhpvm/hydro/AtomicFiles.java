package org.jhpvm.hydro;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Files that appear whole or not at all: the content goes to a temporary file beside the target, which is then
 * moved over it in one step, so a reader (or a restart after a crash) sees either the old file or the complete new
 * one, never half of one. The file gets the permissions of any other new file (the umask's: 0644 where it is 022).
 * The hydro code's snapshots, checkpoints and decks are written this way.
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
        final Path tmp = create(dir, target.getFileName().toString());
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))) {
                content.writeTo(out);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * A new empty file {@code NAME<random>.tmp} in {@code dir}, created with the permissions any other new file gets
     * (the process's umask; {@code Files.createTempFile} would make it owner-only, 0600, and the moved file kept them
     * where every other output is 0644).
     */
    private static Path create(final Path dir, final String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            final Path tmp = dir.resolve(name + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (final FileAlreadyExistsException e) {
                if (attempt == 100) {
                    throw e;
                }
            }
        }
    }
}
