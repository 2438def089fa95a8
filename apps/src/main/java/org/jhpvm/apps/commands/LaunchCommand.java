package org.jhpvm.apps.commands;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jhpvm.apps.LaunchedMain;
import org.jhpvm.apps.bench.ChildJvm;
import org.jhpvm.fabric.aeron.JobEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jhpvm launch -n N [--hosts h1:2,h2:2] [--pes-per-process K] -- <subcommand or main class> [args]}: starts
 * the processes of a job, each told its place by environment variables in the PMI style ({@link JobEnvironment}),
 * streams their output with a PE prefix, and returns the first non-zero exit (ending the others). Every check of the
 * configuration happens before any process starts.
 */
@Command(name = "launch", mixinStandardHelpOptions = true,
    description = {"Runs a command as a job of several processes (and hosts) over Aeron: IPC between the processes "
        + "of a host, UDP between hosts. Example: jhpvm launch -n 4 -- hydro sod. The command is a jhpvm subcommand "
        + "or a main class on the class path. Output lines carry the PEs of the process that wrote them; the exit "
        + "status is the first non-zero one."})
public final class LaunchCommand implements Callable<Integer> {
    /**
     * The class a launched process starts ({@code bin/jhpvm}'s entry point), named rather than referred to: the
     * entry point depends on this package, not the other way round (a test checks the name).
     */
    static final String ENTRY_CLASS = "org.jhpvm.apps.Main";

    /**
     * Our variables a launched process inherits from the launcher's environment; the launcher sets the others itself
     * and drops any given to it.
     */
    private static final java.util.Set<String> PASSED_ON = java.util.Set.of("JHPVM_DEBUG", "JHPVM_JAVA_OPTS",
        "JHPVM_UDP_MTU");

    /** How long the others get to end by themselves after a process failed. */
    private static final long GRACE_MS = 3_000;

    @Option(names = {"-n", "--processes"}, paramLabel = "N", description = "Processes to start (default: "
        + "${DEFAULT-VALUE}).")
    private int processes = 2;

    @Option(names = "--pes-per-process", paramLabel = "K", description = "PEs in each process; PEs of one process "
        + "talk in the JVM (default: ${DEFAULT-VALUE}).")
    private int pesPerProcess = 1;

    @Option(names = "--hosts", paramLabel = "LIST", description = "Host of each process, as host:count,... "
        + "(default: every process on localhost).")
    private String hosts = "";

    @Option(names = "--transport", paramLabel = "T", description = "auto (IPC within a host, UDP between hosts) or "
        + "udp (UDP everywhere, also on one host) (default: ${DEFAULT-VALUE}).")
    private String transport = "auto";

    @Option(names = "--port", paramLabel = "P", description = "UDP port of the first process of each host; the "
        + "next ones count up (default: ${DEFAULT-VALUE}).")
    private int port = JobEnvironment.DEFAULT_PORT;

    @Option(names = "--spawn", paramLabel = "PREFIX", description = "Command that starts a process on its host, "
        + "{host} and {index} (the host's index) replaced, e.g. 'ip netns exec ns{index}' or 'ssh {host}' "
        + "(default: none: every host must be this machine).")
    private String spawn;

    @Option(names = "--heartbeat-timeout-ms", paramLabel = "MS", description = "A process silent this long is lost "
        + "and the job ends (default: ${DEFAULT-VALUE}).")
    private long heartbeatTimeoutMs = 1_500;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The jhpvm subcommand (or main class) and its "
        + "arguments, after --  (default: none).")
    private List<String> command;

    /** Creates the {@code jhpvm launch} command; picocli calls this reflectively, then sets the options given. */
    public LaunchCommand() {
    }

    @Override
    public Integer call() throws Exception {
        if (processes < 1 || processes > 4_096) {
            throw new IllegalArgumentException("-n " + processes + ": must be 1..4096");
        }
        if (pesPerProcess < 1 || (long) pesPerProcess * processes > 65_536) {
            throw new IllegalArgumentException("--pes-per-process " + pesPerProcess + ": must be at least 1, and at "
                + "most 65536 PEs in all");
        }
        if (!transport.equals("auto") && !transport.equals("udp")) {
            throw new IllegalArgumentException("--transport " + transport + ": must be auto or udp");
        }
        if (port < 1 || port > 65_535 - processes) {
            throw new IllegalArgumentException("--port " + port + ": out of range");
        }
        if (heartbeatTimeoutMs < 100) {
            throw new IllegalArgumentException("--heartbeat-timeout-ms " + heartbeatTimeoutMs + ": at least 100");
        }
        checkCommand(command.getFirst());
        final List<String> rankHosts = JobEnvironment.parseHosts(hosts, processes);
        final List<String> distinct = JobEnvironment.distinctHosts(rankHosts);
        final boolean udp = transport.equals("udp") || distinct.size() > 1;
        for (final String h : distinct) {
            final InetAddress a;
            try {
                a = InetAddress.getByName(h);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("unknown host '" + h + "'");
            }
            if (spawn == null && !isLocal(a)) {
                throw new IllegalArgumentException("host '" + h + "' is not this machine: give --spawn (e.g. "
                    + "'ssh {host}') to start processes there");
            }
            if (udp && isLocal(a)) {
                checkPortsFree(a, h, rankHosts);
            }
        }
        final String jobId = "j" + Long.toHexString(System.nanoTime() ^ ProcessHandle.current().pid() << 32);
        final byte[] key = new byte[24];
        new SecureRandom().nextBytes(key);
        final String secret = HexFormat.of().formatHex(key);
        final List<Process> procs = new ArrayList<>();
        final List<Thread> pumps = new ArrayList<>();
        final Thread cleanup = new Thread(() -> procs.forEach(LaunchCommand::kill), "jhpvm-launch-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            for (int r = 0; r < processes; r++) {
                final ProcessBuilder pb = new ProcessBuilder(commandLine(rankHosts.get(r),
                    distinct.indexOf(rankHosts.get(r))));
                final Map<String, String> env = pb.environment();
                env.keySet().removeIf(k -> k.startsWith("JHPVM_") && !PASSED_ON.contains(k)
                    || k.startsWith("SLURM_") || k.startsWith("OMPI_") || k.startsWith("PMI_"));
                env.put("JHPVM_RANK", String.valueOf(r));
                env.put("JHPVM_PROCESSES", String.valueOf(processes));
                env.put("JHPVM_PES_PER_PROCESS", String.valueOf(pesPerProcess));
                env.put("JHPVM_HOSTS", String.join(",", rankHosts));
                env.put("JHPVM_PORT", String.valueOf(port));
                env.put("JHPVM_TRANSPORT", transport);
                env.put("JHPVM_JOB_ID", jobId);
                env.put("JHPVM_SECRET", secret);
                env.put("JHPVM_HEARTBEAT_TIMEOUT_MS", String.valueOf(heartbeatTimeoutMs));
                final Process p = pb.start();
                procs.add(p);
                final String prefix = "[" + pesLabel(r) + "] ";
                pumps.add(pump(p.getInputStream(), System.out, prefix));
                pumps.add(pump(p.getErrorStream(), System.err, prefix));
            }
            return await(procs, pumps);
        } finally {
            procs.forEach(LaunchCommand::kill);
            removeAeronDirectories(procs, jobId, distinct);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // shutting down already: the hook runs
            }
        }
    }

    /**
     * Removes the job's Aeron directories on this machine once its processes have ended. A process that runs a host's
     * media driver deletes its directory when it ends normally; one that was killed (by a failure's end, or kill -9)
     * cannot, and its directory (tens of MB under /dev/shm) would stay.
     */
    private void removeAeronDirectories(final List<Process> procs, final String jobId, final List<String> hostNames) {
        if (System.getenv("JHPVM_AERON_DIR") != null || spawn != null) {
            return; // a directory of the user's choosing, or on other machines
        }
        for (final Process p : procs) {
            try {
                p.onExit().get(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                continue; // killed and still ending: it can no longer use the directory
            }
        }
        for (int h = 0; h < hostNames.size(); h++) {
            final java.io.File dir = new java.io.File(JobEnvironment.defaultAeronDir(jobId, h));
            if (dir.isDirectory()) {
                org.agrona.IoUtil.delete(dir, true);
            }
        }
    }

    /**
     * The command must be a jhpvm subcommand or a main class this class path has, checked before any process starts
     * (so that a typo is one line, not a job whose every process fails).
     */
    private static void checkCommand(final String first) {
        if (isMainClass(first)) {
            try {
                Class.forName(first, false, LaunchCommand.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalArgumentException("no main class '" + first + "' on the class path (give a jhpvm "
                    + "subcommand or a main class)");
            }
            return;
        }
        final java.util.Set<String> known = new picocli.CommandLine(new JhpvmCommand()).getSubcommands().keySet();
        if (!known.contains(first)) {
            throw new IllegalArgumentException("unknown command '" + first + "' (jhpvm subcommands: "
                + String.join(", ", new java.util.TreeSet<>(known)) + "; or a main class)");
        }
    }

    private static boolean isMainClass(final String first) {
        return first.contains(".") && !first.startsWith("-");
    }

    private String pesLabel(final int r) {
        final int first = r * pesPerProcess;
        return pesPerProcess == 1 ? "PE " + first : "PEs " + first + "-" + (first + pesPerProcess - 1);
    }

    /** Waits for every process; after the first non-zero exit, gives the others the grace period, then ends them. */
    private int await(final List<Process> procs, final List<Thread> pumps) throws InterruptedException {
        int status = 0;
        int failed = -1;
        long killAtNs = Long.MAX_VALUE;
        final boolean[] reported = new boolean[procs.size()];
        int remaining = procs.size();
        while (remaining > 0) {
            for (int r = 0; r < procs.size(); r++) {
                final Process p = procs.get(r);
                if (reported[r] || p.isAlive()) {
                    continue;
                }
                reported[r] = true;
                remaining--;
                if (p.exitValue() != 0 && failed < 0) {
                    failed = r;
                    status = p.exitValue();
                    killAtNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MS);
                }
            }
            if (System.nanoTime() - killAtNs > 0) {
                for (int r = 0; r < procs.size(); r++) {
                    if (!reported[r]) {
                        System.err.println("jhpvm launch: process " + r + " (" + pesLabel(r) + ") still running "
                            + GRACE_MS + " ms after the failure: killed");
                        kill(procs.get(r));
                    }
                }
                killAtNs = Long.MAX_VALUE;
            }
            if (remaining > 0) {
                // Woken by the next exit (the JDK's reaper waits for it), not by looking every few milliseconds.
                final List<CompletableFuture<Process>> running = new ArrayList<>();
                for (int r = 0; r < procs.size(); r++) {
                    if (!reported[r]) {
                        running.add(procs.get(r).onExit());
                    }
                }
                final long waitMs = killAtNs == Long.MAX_VALUE ? 1_000
                    : Math.max(1, TimeUnit.NANOSECONDS.toMillis(killAtNs - System.nanoTime()));
                try {
                    CompletableFuture.anyOf(running.toArray(new CompletableFuture<?>[0])).get(waitMs,
                        TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // look again: an exit, the kill time, or the periodic look
                }
            }
        }
        for (final Thread t : pumps) {
            t.join(2_000);
        }
        if (failed >= 0) {
            System.err.println("jhpvm launch: process " + failed + " (" + pesLabel(failed) + ") exited with status "
                + status);
        }
        return status;
    }

    private static void kill(final Process p) {
        if (p.isAlive()) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private List<String> commandLine(final String host, final int hostIndex) {
        final List<String> cmd = new ArrayList<>();
        if (spawn != null) {
            for (final String w : spawn.trim().split("\\s+")) {
                cmd.add(w.replace("{host}", host).replace("{index}", String.valueOf(hostIndex)));
            }
        }
        cmd.addAll(ChildJvm.command());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        final String first = command.getFirst();
        if (isMainClass(first)) {
            cmd.add(LaunchedMain.class.getName()); // runs it, then ends the process
            cmd.addAll(command); // a main class and its arguments
        } else {
            cmd.add(ENTRY_CLASS);
            cmd.addAll(command);
        }
        return cmd;
    }

    private static Thread pump(final InputStream in, final PrintStream out, final String prefix) {
        return Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (out) {
                        out.println(prefix + line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    private static boolean isLocal(final InetAddress a) {
        try {
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    private void checkPortsFree(final InetAddress a, final String host, final List<String> rankHosts) {
        int index = 0;
        for (final String h : rankHosts) {
            if (!h.equals(host)) {
                continue;
            }
            final int p = port + index++;
            try (DatagramSocket s = new DatagramSocket(null)) {
                s.bind(new InetSocketAddress(a, p));
            } catch (SocketException e) {
                throw new IllegalArgumentException("UDP port " + p + " on " + host + " is in use (choose another "
                    + "--port)");
            }
        }
    }
}
