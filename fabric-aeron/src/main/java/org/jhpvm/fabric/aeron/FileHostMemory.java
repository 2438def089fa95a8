package org.jhpvm.fabric.aeron;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.jhpvm.fabric.HostMemorySegments;

/**
 * The host memory of a launched job: each segment is a file in the host's job directory ({@code shm-segments} inside
 * the Aeron directory, under {@code /dev/shm} by default), which its creator and every other process of the host map
 * read-write. The files go with the directory: the media driver deletes it when the host's last process has left,
 * {@code bin/jhpvm launch} when its processes have ended however they ended, and a later job's driver when a job died
 * with its launcher ({@link StaleDirectories}).
 * <p>
 * A file on tmpfs takes its pages when they are first touched, and a page the file system cannot give kills the
 * process that touches it (SIGBUS): so {@link #create} refuses a segment larger than the file system's free space
 * at that moment, naming both (another process may still take the room between; the job directory is the job's own).
 */
final class FileHostMemory extends HostMemorySegments {
    /** The directory inside the host's Aeron directory that holds the segments. */
    static final String DIRECTORY = "shm-segments";
    private final JobEnvironment env;
    private final int first;
    private final int count;
    private final Path dir;

    /** The host's doorbells, whose NIC slots count the stores into segments ({@link #written}); or null. */
    private final Doorbells bells;

    FileHostMemory(final JobEnvironment env, final int first, final int count, final Doorbells bells) {
        this.env = env;
        this.bells = bells;
        this.first = first;
        this.count = count;
        this.dir = Path.of(env.aeronDir(), DIRECTORY);
    }

    @Override
    public boolean reaches(final int nic) {
        return isLocal(nic) || nic >= 0 && nic < env.nicCount() && env.sameHost(nic / env.pesPerProcess());
    }

    /**
     * Counts the store on the NIC's bell, which a sleeping host of it is woken by; without doorbells the host notices
     * the store at its next look.
     */
    @Override
    public void written(final int nic) {
        if (bells != null) {
            bells.written(nic);
        }
    }

    @Override
    protected boolean isLocal(final int nic) {
        return nic >= first && nic < first + count;
    }

    private Path file(final int nic, final int name) {
        return dir.resolve("nic" + nic + "-" + Integer.toUnsignedString(name));
    }

    @Override
    protected MemorySegment allocate(final int nic, final int name, final long bytes, final Arena arena) {
        final Path f = file(nic, name);
        try {
            Files.createDirectories(dir);
            final long free = Files.getFileStore(dir).getUsableSpace();
            if (bytes > free) {
                throw new IllegalStateException("host memory: " + bytes + " bytes wanted for segment " + name
                    + " of NIC " + nic + ", " + free + " free in " + dir);
            }
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
                return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena); // a new file: zeroed
            }
        } catch (FileAlreadyExistsException e) {
            throw new IllegalArgumentException("host memory segment file " + f + " exists already", e);
        } catch (IOException e) {
            deleteQuietly(f);
            throw new UncheckedIOException("host memory: cannot create " + f + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected MemorySegment open(final int nic, final int name, final Arena arena) {
        final Path f = file(nic, name);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("NIC " + nic + " has no host memory segment " + name + " (no " + f + ")",
                e);
        } catch (IOException e) {
            throw new UncheckedIOException("host memory: cannot map " + f + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void removed(final int nic, final int name) {
        deleteQuietly(file(nic, name));
    }

    private static void deleteQuietly(final Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // the job directory goes with the job
        }
    }
}
