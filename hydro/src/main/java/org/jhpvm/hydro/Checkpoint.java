package org.jhpvm.hydro;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;


/**
 * A hydro checkpoint file: what {@link HydroRun.State} holds, with a header that says what run it belongs to, and a
 * checksum. Binary, big-endian ({@link DataOutputStream}):
 * <pre>
 *   "JHPVMCKP"                      8 bytes, magic
 *   int     format version          ({@link #VERSION})
 *   int     n, then n pairs of UTF  the run's description: problem and options (the deck's keys and values)
 *   int     cycle                   double time, double last time step
 *   int     m, m doubles            the totals after initialisation
 *   int     v, v doubles            every field, [field][zones...] row-major
 *   long    CRC32C of every byte before it
 * </pre>
 * A file that is too short, has another magic or version, or whose checksum does not match is refused with one line
 * saying which ({@link IllegalArgumentException}); nothing is read from it then. A checkpoint is written to a
 * temporary file in the same directory and moved over the last one only when complete, so a run stopped while
 * writing leaves the last good checkpoint in place.
 */
public final class Checkpoint {
    /** The file format's version. */
    public static final int VERSION = 1;
    private static final byte[] MAGIC = "JHPVMCKP".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * A checkpoint read back.
     *
     * @param run   the run's description (problem and options) as written
     * @param state the state to continue from
     */
    public record Read(Map<String, String> run, HydroRun.State state) {
    }

    private Checkpoint() {
    }

    /**
     * Writes a checkpoint, replacing {@code file} only once the new one is complete.
     *
     * @param file  the checkpoint's path
     * @param run   the run's description: problem and options
     * @param state the state
     * @throws IOException if it cannot be written (the last checkpoint stays)
     */
    public static void write(final Path file, final Map<String, String> run, final HydroRun.State state)
        throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 8 * state.fields().length);
        final DataOutputStream out = new DataOutputStream(bytes);
        out.write(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(run.size());
        for (final Map.Entry<String, String> e : run.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
        out.writeInt(state.cycle());
        out.writeDouble(state.time());
        out.writeDouble(state.dtPrev());
        out.writeInt(state.before().length);
        for (final double v : state.before()) {
            out.writeDouble(v);
        }
        out.writeInt(state.fields().length);
        final ByteBuffer fields = ByteBuffer.allocate(8 * state.fields().length);
        fields.asDoubleBuffer().put(state.fields());
        out.write(fields.array());
        final CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeLong(crc.getValue());
        out.flush();
        AtomicFiles.write(file, bytes::writeTo);
    }

    /**
     * Reads a checkpoint, checking its magic, version, length and checksum first.
     *
     * @param file the checkpoint
     * @return its run description and state
     * @throws IllegalArgumentException for a missing, truncated, corrupted or foreign file (one line: which)
     * @throws IOException              if it cannot be read
     */
    public static Read read(final Path file) throws IOException {
        final byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (final NoSuchFileException e) {
            throw new IllegalArgumentException("checkpoint " + file + ": no such file", e);
        }
        if (all.length < MAGIC.length + 4 + 8 || !java.util.Arrays.equals(all, 0, MAGIC.length, MAGIC, 0,
            MAGIC.length)) {
            throw new IllegalArgumentException("checkpoint " + file + ": not a jhpvm hydro checkpoint (no "
                + "JHPVMCKP header)");
        }
        final int version = ByteBuffer.wrap(all, MAGIC.length, 4).getInt();
        if (version != VERSION) {
            throw new IllegalArgumentException("checkpoint " + file + ": format version " + version + ", this "
                + "jhpvm reads version " + VERSION);
        }
        final CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 8);
        if (crc.getValue() != ByteBuffer.wrap(all, all.length - 8, 8).getLong()) {
            throw new IllegalArgumentException("checkpoint " + file + ": checksum mismatch (truncated or "
                + "corrupted)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, MAGIC.length + 4,
            all.length - MAGIC.length - 12))) {
            final int n = in.readInt();
            final Map<String, String> run = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                run.put(in.readUTF(), in.readUTF());
            }
            final int cycle = in.readInt();
            final double time = in.readDouble();
            final double dtPrev = in.readDouble();
            final double[] before = new double[in.readInt()];
            for (int i = 0; i < before.length; i++) {
                before[i] = in.readDouble();
            }
            final int values = in.readInt();
            if (values < 0 || (long) values * 8 > in.available()) {
                throw new EOFException(values + " field values announced, fewer stored");
            }
            final byte[] raw = new byte[8 * values];
            in.readFully(raw);
            final double[] fields = new double[values];
            ByteBuffer.wrap(raw).asDoubleBuffer().get(fields);
            if (in.available() != 0) {
                throw new EOFException(in.available() + " bytes after the fields");
            }
            return new Read(run, new HydroRun.State(time, dtPrev, cycle, before, fields));
        } catch (final EOFException e) {
            throw new IllegalArgumentException("checkpoint " + file + ": malformed (" + e.getMessage() + ")", e);
        }
    }
}
