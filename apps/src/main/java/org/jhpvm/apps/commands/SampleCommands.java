package org.jhpvm.apps.commands;

import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Reports;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.samples.Gups;
import org.jhpvm.apps.samples.Hello;
import org.jhpvm.apps.samples.Jacobi;
import org.jhpvm.apps.samples.Matmul;
import org.jhpvm.apps.samples.MpiRing;
import org.jhpvm.apps.samples.TaskPool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The sample programs: each checks its own answer and exits 1 if it is wrong. */
public final class SampleCommands {
    private SampleCommands() {
    }

    private static void positive(final int value, final String option) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " " + value + ": at least 1");
        }
    }

    /** {@code jhpvm hello}. */
    @Command(name = "hello", mixinStandardHelpOptions = true,
        description = "The smallest SHMEM program: each PE puts its number into its right neighbour's memory.")
    public static final class HelloCommand implements Callable<Integer> {
        @Option(names = "--pes", paramLabel = "N", description = "PEs (default: 4, or the launched job's PEs).")
        private int pes = Launched.pes(4);

        /** Creates the {@code jhpvm hello} command; picocli calls this reflectively, then sets the options given. */
        public HelloCommand() {
        }

        @Override
        public Integer call() {
            positive(pes, "--pes");
            final String[] lines = Hello.run(pes);
            for (final String line : lines) {
                if (line != null) { // under launch each process prints the lines of its own PEs
                    System.out.println(line);
                }
            }
            return 0;
        }
    }

    /** {@code jhpvm ring}. */
    @Command(name = "ring", mixinStandardHelpOptions = true,
        description = {"The classic MPI ring in the Open MPI Java bindings' API: a token goes round the ranks --laps "
            + "times, rank 0 counting the laps down. Each rank prints what it received; exits 1 if any count is "
            + "wrong."})
    public static final class RingCommand implements Callable<Integer> {
        @Option(names = "--pes", paramLabel = "N", description = "Ranks (default: 4, or the launched job's PEs).")
        private int pes = Launched.pes(4);

        @Option(names = "--laps", paramLabel = "L", description = "Laps of the token (default: ${DEFAULT-VALUE}).")
        private int laps = 10;

        /** Creates the {@code jhpvm ring} command; picocli calls this reflectively, then sets the options given. */
        public RingCommand() {
        }

        @Override
        public Integer call() {
            positive(pes, "--pes");
            if (laps < 0) {
                throw new IllegalArgumentException("--laps " + laps + ": at least 0");
            }
            boolean ok = true;
            for (final MpiRing.Seen s : MpiRing.run(pes, laps)) {
                if (s == null) {
                    continue; // under launch each process prints the lines of its own ranks
                }
                final boolean right = s.right(laps);
                ok &= right;
                System.out.printf("rank %d of %d: received the token %d times%s%s%n", s.rank(), s.ranks(),
                    s.received(), s.rank() == 0 ? ", " + s.hops() + " hops in all" : "", right ? "" : " (WRONG)");
            }
            return ok ? 0 : 1;
        }
    }

    /** {@code jhpvm jacobi}. */
    @Command(name = "jacobi", mixinStandardHelpOptions = true,
        description = {"2-D Laplace equation by Jacobi iteration on Global Arrays with ghost cells, checked against "
            + "its exact discrete solution u = x^2 - y^2 + 3xy. Exits 1 if the error exceeds 1e-6."})
    public static final class JacobiCommand implements Callable<Integer> {
        @Option(names = "--pes", paramLabel = "N", description = "PEs (default: 4, or the launched job's PEs).")
        private int pes = Launched.pes(4);

        @Option(names = "--n", paramLabel = "N", description = "Interior points per dimension "
            + "(default: ${DEFAULT-VALUE}).")
        private int n = 32;

        @Option(names = "--tolerance", paramLabel = "T", description = "Stop when the largest change falls below "
            + "(default: ${DEFAULT-VALUE}).")
        private double tolerance = 1e-10;

        @Option(names = "--max-iterations", paramLabel = "K", description = "Give up after (default: "
            + "${DEFAULT-VALUE}).")
        private int maxIterations = 100_000;

        @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON (default: none).")
        private Path json;

        /** Creates the {@code jhpvm jacobi} command; picocli calls this reflectively, then sets the options given. */
        public JacobiCommand() {
        }

        @Override
        public Integer call() throws IOException {
            positive(pes, "--pes");
            final Jacobi.Result r = Jacobi.run(pes, n, tolerance, maxIterations);
            if (r == null || !Launched.reports()) {
                return 0; // a process of a launched job without PE 0: rank 0 reports
            }
            final boolean ok = r.maxError() <= 1e-6;
            System.out.printf("jacobi: %d x %d interior points on %d PEs: %d iterations, last change %.3g, "
                + "max error against the exact solution %.3g (%s), %.2f s%n", n, n, pes, r.iterations(), r.residual(),
                r.maxError(), ok ? "ok" : "WRONG", r.seconds());
            if (json != null) {
                final ObjectNode o = Reports.object();
                o.put("n", n).put("pes", pes).put("iterations", r.iterations()).put("residual", r.residual())
                    .put("max_error", r.maxError()).put("seconds", r.seconds()).put("ok", ok);
                Reports.writeJson(json, o);
            }
            return ok ? 0 : 1;
        }
    }

    /** {@code jhpvm matmul}. */
    @Command(name = "matmul", mixinStandardHelpOptions = true,
        description = {"GA dgemm on distributed n x n matrices A(i,k) = i + k, B(k,j) = k - j, checked element by "
            + "element against the closed-form product. Exits 1 on any mismatch."})
    public static final class MatmulCommand implements Callable<Integer> {
        @Option(names = "--pes", paramLabel = "N", description = "PEs (default: 4, or the launched job's PEs).")
        private int pes = Launched.pes(4);

        @Option(names = "--n", paramLabel = "N", description = "Matrix order (default: ${DEFAULT-VALUE}).")
        private int n = 256;

        @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON (default: none).")
        private Path json;

        /** Creates the {@code jhpvm matmul} command; picocli calls this reflectively, then sets the options given. */
        public MatmulCommand() {
        }

        @Override
        public Integer call() throws IOException {
            positive(pes, "--pes");
            final Matmul.Result r = Matmul.run(pes, n);
            if (r == null || !Launched.reports()) {
                return 0; // a process of a launched job without PE 0: rank 0 reports
            }
            final boolean ok = r.mismatches() == 0;
            System.out.printf("matmul: %d x %d on %d PEs: %d mismatches against the closed form (%s), %.3f s, "
                + "%.2f GFLOP/s%n", n, n, pes, r.mismatches(), ok ? "ok" : "WRONG", r.seconds(), r.gflops());
            if (json != null) {
                final ObjectNode o = Reports.object();
                o.put("n", n).put("pes", pes).put("mismatches", r.mismatches()).put("seconds", r.seconds())
                    .put("gflops", r.gflops()).put("ok", ok);
                Reports.writeJson(json, o);
            }
            return ok ? 0 : 1;
        }
    }

    /** {@code jhpvm gups}. */
    @Command(name = "gups", mixinStandardHelpOptions = true,
        description = {"HPCC RandomAccess with SHMEM atomic XOR: 4 * 2^m random updates of a 2^m-entry table spread "
            + "over the PEs, verified as HPCC does (the same updates again must restore the table; HPCC allows 1%% "
            + "errors, with atomics there are none). One atomic per update, or with --batched each 1024 updates "
            + "(HPCC's look-ahead limit) bucketed by target PE and sent together. Exits 1 on any error."})
    public static final class GupsCommand implements Callable<Integer> {
        @Option(names = "--pes", paramLabel = "N", description = "PEs, a power of two (default: 4, or the launched "
            + "job's PEs).")
        private int pes = Launched.pes(4);

        @Option(names = "--log-size", paramLabel = "M", description = "Table of 2^M longs (default: "
            + "${DEFAULT-VALUE}).")
        private int logSize = 16;

        @Option(names = "--batched", description = "Bucket each 1024 updates by target PE and send each bucket's "
            + "atomics together (HPCC's look-ahead rule; SHMEM combines them into one message per target; default: off, "
            + "one atomic per update).")
        private boolean batched;

        @Option(names = "--memory", paramLabel = "KIND", description = "heap (SymmetricLongs: Java arrays; another "
            + "process's part reached by messages it serves) or segment (mallocSegment: host memory, atomics straight "
            + "on the memory of every PE of the host, other processes' too) (default: ${DEFAULT-VALUE}).")
        private String memory = "heap";

        @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON (default: none).")
        private Path json;

        /** Creates the {@code jhpvm gups} command; picocli calls this reflectively, then sets the options given. */
        public GupsCommand() {
        }

        @Override
        public Integer call() throws IOException {
            if (!memory.equals("heap") && !memory.equals("segment")) {
                throw new IllegalArgumentException("--memory " + memory + ": heap or segment");
            }
            final boolean segment = memory.equals("segment");
            final Gups.Result r = Gups.run(pes, logSize, batched, segment);
            if (r == null || !Launched.reports()) {
                return 0; // a process of a launched job without PE 0: rank 0 reports
            }
            final boolean ok = r.errors() == 0;
            System.out.printf("gups%s%s: table 2^%d on %d PEs, %d updates in %.3f s: %.6f GUP/s (%.2f M updates/s); "
                + "verification: %d errors (%s)%n", batched ? " --batched" : "", segment ? " --memory segment" : "",
                logSize, pes, r.updates(),
                r.seconds(), r.gups(), r.mups(), r.errors(), ok ? "ok" : "WRONG");
            if (json != null) {
                final ObjectNode o = Reports.object();
                o.put("log_table_size", logSize).put("pes", pes).put("updates", r.updates())
                    .put("seconds", r.seconds()).put("gups", r.gups()).put("errors", r.errors()).put("ok", ok)
                    .put("batched", batched).put("memory", memory).put("updates_per_s_M", r.mups());
                Reports.writeJson(json, o);
            }
            return ok ? 0 : 1;
        }
    }

    /** {@code jhpvm taskpool}. */
    @Command(name = "taskpool", mixinStandardHelpOptions = true,
        description = {"Dynamic load balancing with GA readInc: Mandelbrot rows handed out by a shared counter, "
            + "checked pixel for pixel against a single loop. Exits 1 if the images differ."})
    public static final class TaskPoolCommand implements Callable<Integer> {
        @Option(names = "--pes", paramLabel = "N", description = "PEs (default: 4, or the launched job's PEs).")
        private int pes = Launched.pes(4);

        @Option(names = "--width", paramLabel = "W", description = "Pixels per row (default: ${DEFAULT-VALUE}).")
        private int width = 640;

        @Option(names = "--height", paramLabel = "H", description = "Rows (default: ${DEFAULT-VALUE}).")
        private int height = 480;

        @Option(names = "--max-iter", paramLabel = "K", description = "Iteration limit (default: ${DEFAULT-VALUE}).")
        private int maxIter = 500;

        @Option(names = "--out", paramLabel = "DIR", description = "Write DIR/taskpool.png (default: none).")
        private Path out;

        @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON (default: none).")
        private Path json;

        /** Creates the {@code jhpvm taskpool} command; picocli calls this reflectively, then sets the options given. */
        public TaskPoolCommand() {
        }

        @Override
        public Integer call() throws IOException {
            positive(pes, "--pes");
            final TaskPool.Result r = TaskPool.run(pes, width, height, maxIter);
            if (r == null || !Launched.reports()) {
                return 0; // a process of a launched job without PE 0: rank 0 reports
            }
            final boolean ok = Arrays.equals(r.image(), TaskPool.sequential(width, height, maxIter));
            System.out.printf("taskpool: %d x %d Mandelbrot on %d PEs in %.3f s; rows per PE %s; image %s the "
                + "single-loop one%n", width, height, pes, r.seconds(), Arrays.toString(r.rowsPerPe()),
                ok ? "equals" : "DIFFERS FROM");
            if (out != null) {
                Files.createDirectories(out);
                final Path png = out.resolve("taskpool.png");
                ImageIO.write(image(r, maxIter), "png", png.toFile());
                System.out.println("wrote " + png);
            }
            if (json != null) {
                final ObjectNode o = Reports.object();
                o.put("width", width).put("height", height).put("pes", pes).put("seconds", r.seconds())
                    .put("ok", ok);
                final var rows = o.putArray("rows_per_pe");
                Arrays.stream(r.rowsPerPe()).forEach(rows::add);
                Reports.writeJson(json, o);
            }
            return ok ? 0 : 1;
        }

        private static BufferedImage image(final TaskPool.Result r, final int maxIter) {
            final BufferedImage img = new BufferedImage(r.width(), r.height(), BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < r.height(); y++) {
                for (int x = 0; x < r.width(); x++) {
                    final int k = r.image()[y * r.width() + x];
                    final int v = k >= maxIter ? 0 : (int) (255 * Math.sqrt((double) k / maxIter));
                    img.setRGB(x, y, (v << 16) | (v / 2 << 8) | (255 - v) / 3);
                }
            }
            return img;
        }
    }
}
