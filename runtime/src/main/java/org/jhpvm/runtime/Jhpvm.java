package org.jhpvm.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.ThreadLevel;

/**
 * The entry point of a user's program: which PE this is, the job's options, and the SHMEM or Global Arrays part of
 * the program. A program is written once and runs unchanged on N PEs in one JVM ({@code bin/jhpvm run --pes 4
 * Ring.java}) and as a job of processes ({@code bin/jhpvm launch -n 4 -- run Ring.java}):
 * <pre>{@code
 * public class Ring {
 *     public static void main(String[] args) {
 *         Jhpvm.shmem(args, sh -> {
 *             SymmetricInts from = sh.mallocInts(1);
 *             from.p((sh.myPe() + 1) % sh.nPes(), 0, sh.myPe());
 *             sh.barrierAll();
 *             System.out.println("PE " + sh.myPe() + " got " + from.local()[0]);
 *         });
 *     }
 * }
 * }</pre>
 * <b>Under {@code bin/jhpvm run}</b> every PE runs {@code main} on its own thread with its own copy of the program's
 * classes (static fields are per PE, as per process under {@code oshrun}); {@link #shmem} is collective, like
 * {@code shmem_init}: every PE calls it, the body runs on every PE as one SHMEM job, and the call returns on each PE
 * when the job has ended (finalized as {@code shmem_finalize} does). The PE, the PE count and the options are
 * known from the start of {@code main}.
 * <p>
 * <b>Called from a plain {@code java} program</b> (a Maven project depending on jhpvm, say), {@link #shmem} runs the
 * job itself in this JVM: {@code --pes N} and {@code --option KEY=VALUE} among {@code args} set it up (default 4 PEs,
 * or the launched job's), the body runs on every PE, and the call returns once. The PEs then share the program's
 * classes; use {@code bin/jhpvm run} for per-PE statics.
 * <p>
 * A failure of any PE aborts the job: the call throws (under {@code run}, the run reports the first failure with
 * its PE, exit status 1). {@code globalExit(status)} ends the program with that status on every PE (outside
 * {@code run}: the JVM exits with it, as {@code shmem_global_exit} ends the program).
 */
public final class Jhpvm {
    /** What each PE runs with its Global Arrays. */
    @FunctionalInterface
    public interface GaBody {
        /**
         * Runs this PE's part of the program.
         *
         * @param ga this PE's Global Arrays ({@code GA_Initialize} done)
         * @throws Exception any failure aborts the job
         */
        void run(GlobalArrays ga) throws Exception;
    }

    private static final String VERSION = readVersion();

    private Jhpvm() {
    }

    /**
     * The version of jhpvm this program runs on, as the build recorded it.
     *
     * @return the version, e.g. {@code 0.1.0-SNAPSHOT} ({@code unknown} if the build did not record it)
     */
    public static String version() {
        return VERSION;
    }

    private static String readVersion() {
        try (InputStream in = Jhpvm.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            final Properties p = new Properties();
            p.load(in);
            final String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * Runs the SHMEM part of the program on every PE: collective over the PEs of the job.
     *
     * @param args the program's arguments (read for {@code --pes} and {@code --option} only outside
     *             {@code bin/jhpvm run})
     * @param body what each PE runs with its SHMEM
     * @throws org.jhpvm.shmem.ShmemAbortException if a PE failed or the job timed out
     * @throws JhpvmAbortException                 under {@code run}, if another PE ended without making the call
     * @throws IllegalStateException               if called inside a body
     * @throws IllegalArgumentException            outside {@code run}, for a bad {@code --pes} or {@code --option}
     */
    public static void shmem(final String[] args, final ShmemJob.Body body) {
        shmem(args, null, body);
    }

    /**
     * As {@link #shmem(String[], ShmemJob.Body)}, at a thread level ({@code shmem_init_thread}): the job provides at
     * least the level every PE asks for (the highest asked, or the {@code shmem.threadLevel} option's if higher);
     * {@code Shmem.queryThread()} says which. Example: {@code Jhpvm.shmem(args, ThreadLevel.MULTIPLE, sh -> ...)}, whose
     * body may start threads that call SHMEM at once.
     *
     * @param args      the program's arguments, as for {@link #shmem(String[], ShmemJob.Body)}
     * @param requested the thread level this PE asks for, or null for the options' (FUNNELED by default)
     * @param body      what each PE runs with its SHMEM
     * @throws org.jhpvm.shmem.ShmemAbortException if a PE failed or the job timed out
     * @throws JhpvmAbortException                 under {@code run}, if another PE ended without making the call
     * @throws IllegalStateException               if called inside a body
     * @throws IllegalArgumentException            outside {@code run}, for a bad {@code --pes} or {@code --option}
     */
    public static void shmem(final String[] args, final ThreadLevel requested, final ShmemJob.Body body) {
        Objects.requireNonNull(body, "body");
        final PeContext context = PeContext.current();
        if (context != null) {
            if (context.inBody()) {
                throw new IllegalStateException("Jhpvm.shmem called inside a job body (PE " + context.pe() + "): "
                    + "call it from main");
            }
            context.job().shmem(context.pe(), requested, body);
            return;
        }
        final ProgramJob job = libraryJob(args == null ? new String[0] : args);
        final ShmemJob.Report report = job.runAll(requested, body);
        if (report.globalExit()) {
            System.exit(report.exitStatus());
        }
    }

    /**
     * Runs the Global Arrays part of the program on every PE ({@code GA_Initialize} on SHMEM, then the body): as
     * {@link #shmem}.
     *
     * @param args the program's arguments, as for {@link #shmem}
     * @param body what each PE runs with its Global Arrays
     */
    public static void ga(final String[] args, final GaBody body) {
        Objects.requireNonNull(body, "body");
        shmem(args, sh -> body.run(new GlobalArrays(sh)));
    }

    /**
     * This PE's number, from 0: known in {@code main} before any job starts under {@code bin/jhpvm run}, and inside
     * a body everywhere ({@code shmem_my_pe}).
     *
     * @return this PE's number: in {@code main} under {@code bin/jhpvm run}, or in a body
     * @throws IllegalStateException on a thread that works for no PE
     */
    public static int pe() {
        return context().pe();
    }

    /**
     * The number of PEs in the job, all processes of a launched job included ({@code shmem_n_pes}).
     *
     * @return the number of PEs in the job
     * @throws IllegalStateException on a thread that works for no PE
     */
    public static int npes() {
        return context().job().npes;
    }

    /**
     * The configuration the job was started with: what {@code --option} gave, already checked by the layers.
     *
     * @return the options the job was given ({@code --option KEY=VALUE}), in their order
     * @throws IllegalStateException on a thread that works for no PE
     */
    public static Map<String, String> options() {
        return context().job().options.values();
    }

    /**
     * The program's own arguments, the same on every PE.
     *
     * @return the program's own arguments: as given under {@code bin/jhpvm run}; outside it, without
     *     {@code --pes} and {@code --option}
     * @throws IllegalStateException on a thread that works for no PE
     */
    public static List<String> args() {
        return context().job().args;
    }

    private static PeContext context() {
        final PeContext c = PeContext.current();
        if (c == null) {
            throw new IllegalStateException("this thread is not a jhpvm PE: ask from main under bin/jhpvm run, or "
                + "inside a Jhpvm.shmem body");
        }
        return c;
    }

    /** A job for a plain java program: {@code --pes} and {@code --option} read from its arguments. */
    static ProgramJob libraryJob(final String[] args) {
        int pes = 0;
        final List<String> pairs = new ArrayList<>();
        final List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            final String a = args[i];
            if (a.equals("--pes") || a.equals("--option")) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                if (a.equals("--pes")) {
                    pes = parsePes(args[++i]);
                } else {
                    pairs.add(args[++i]);
                }
            } else if (a.startsWith("--pes=")) {
                pes = parsePes(a.substring("--pes=".length()));
            } else if (a.startsWith("--option=")) {
                pairs.add(a.substring("--option=".length()));
            } else {
                rest.add(a);
            }
        }
        final JobShape shape = JobShape.of(pes, System.getenv());
        final JobOptions options = JobOptions.parse(pairs);
        shape.check(options);
        return new ProgramJob(shape.npes(), shape.firstPe(), shape.localPes(), options, rest,
            ProgramRunner.NO_TIMEOUT, null, null);
    }

    private static int parsePes(final String value) {
        final int pes;
        try {
            pes = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--pes " + value + ": not a number", e);
        }
        if (pes < 1) {
            throw new IllegalArgumentException("--pes " + pes + ": must be at least 1");
        }
        return pes;
    }
}
