package org.jhpvm.apps.commands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.jhpvm.runtime.JobOptions;
import org.jhpvm.runtime.Program;
import org.jhpvm.runtime.ProgramException;
import org.jhpvm.runtime.ProgramRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jhpvm run [--pes N] [--option KEY=VALUE ...] [--class-path CP] PROGRAM [args]}: a user's program on N PEs,
 * in one JVM with a class loader per PE, or as this process's share of a launched job ({@code jhpvm launch -n 4 --
 * run Prog.java}). Everything after PROGRAM is the program's.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {"Runs your own program on N PEs: a Java source file (compiled in memory, as 'java Prog.java' "
        + "does; other source files of the program are found beside it), a jar (its Main-Class) or a main class on "
        + "--class-path. Each PE runs main in its own class loader, so static fields are per PE. The program joins "
        + "the job through org.jhpvm.runtime.Jhpvm (Jhpvm.shmem(args, sh -> ...), Jhpvm.ga(...), Jhpvm.pe()). "
        + "Arguments after PROGRAM go to the program. Exit status: 0, the status of globalExit, 1 if the program "
        + "does not compile or a PE fails (the PE and your exception are named), 2 for a bad option."})
public final class RunCommand implements Callable<Integer> {
    @Option(names = "--pes", paramLabel = "N", description = "PEs (default: 4, or the launched job's PEs).")
    private Integer pes;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "A setting of a layer (repeatable): "
        + "shmem.*, mpi.*, fm.*, fabric.*; 'jhpvm info --all' lists every key with its default (default: none).")
    private List<String> options = new ArrayList<>();

    @Option(names = "--thread-level", paramLabel = "LEVEL", description = "The SHMEM thread level the PEs ask "
        + "for: SINGLE, FUNNELED, SERIALIZED or MULTIPLE, as the option shmem.threadLevel (default: FUNNELED, or "
        + "what the program asks with Jhpvm.shmem(args, level, body)).")
    private String threadLevel;

    @Option(names = {"--class-path", "-cp", "--classpath"}, paramLabel = "CP", description = "The program's class "
        + "path: its classes (for a main class) or libraries, entries separated by '${sys:path.separator}', "
        + "dir/* for every jar in dir (default: . for a main class, none otherwise).")
    private String classPath;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Fail the run if it takes longer "
        + "(default: no limit).")
    private Double timeoutSeconds;

    @Parameters(index = "0", paramLabel = "PROGRAM", description = "Prog.java, prog.jar or a main class.")
    private String program;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The program's arguments (default: none).")
    private List<String> args = new ArrayList<>();

    /** Creates the {@code jhpvm run} command; picocli calls this reflectively, then sets the options given. */
    public RunCommand() {
    }

    @Override
    public Integer call() {
        if (pes != null && pes < 1) {
            throw new IllegalArgumentException("--pes " + pes + ": must be at least 1");
        }
        if (timeoutSeconds != null && !(timeoutSeconds > 0)) {
            throw new IllegalArgumentException("--timeout " + timeoutSeconds + ": must be positive");
        }
        final List<String> pairs = new ArrayList<>(options);
        if (threadLevel != null) {
            pairs.add("shmem.threadLevel=" + threadLevel);
        }
        final JobOptions checked = JobOptions.parse(pairs);
        final ProgramRunner.Builder b = ProgramRunner.builder(Program.of(program, classPath))
            .pes(pes == null ? 0 : pes).options(checked).args(args);
        if (timeoutSeconds != null) {
            b.timeout(Duration.ofNanos((long) (timeoutSeconds * 1e9)));
        }
        final ProgramRunner.Result result;
        try {
            result = b.build().run();
        } catch (ProgramException e) {
            System.out.flush();
            System.err.println("jhpvm run: " + program + " does not compile:");
            System.err.println(e.getMessage());
            return JhpvmCommand.FAILURE;
        }
        System.out.flush();
        if (result.failed() && !result.reportedElsewhere()) {
            System.err.print("jhpvm run: " + result.describe());
            System.err.flush();
        }
        return result.exitStatus();
    }
}
