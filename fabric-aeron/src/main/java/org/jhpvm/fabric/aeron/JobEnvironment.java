package org.jhpvm.fabric.aeron;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where this process stands in a launched job, read from environment variables in the PMI style, so that
 * {@code bin/jhpvm launch}, {@code srun} (SLURM) and {@code mpirun} (Open MPI) can all start PEs.
 * <p>
 * Rank and size come from the first of {@code JHPVM_RANK}/{@code JHPVM_PROCESSES}, {@code SLURM_PROCID}/
 * {@code SLURM_NTASKS}, {@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE}, {@code PMI_RANK}/
 * {@code PMI_SIZE}. The rest are ours: {@code JHPVM_SECRET} (the per-job secret that authenticates the join; never
 * on a command line; required, except under {@code srun} and {@code mpirun}, where it is derived from the launcher's
 * job when not set: {@link LauncherEnvironment} says what that protects), {@code JHPVM_HOSTS} (host of each rank, as
 * {@code h1:2,h2:2} or one entry per rank; default what {@code srun} or a one-host {@code mpirun} says, else every
 * rank on {@code localhost}), {@code JHPVM_PORT} (UDP port of the first process of each host,
 * the next ones count up; default 40123), {@code JHPVM_PES_PER_PROCESS} (default 1), {@code JHPVM_JOB_ID} (default
 * SLURM's job and step id or Open MPI's job id, else derived from the secret), {@code JHPVM_TRANSPORT} ({@code auto}: IPC between
 * processes of a host, UDP between hosts; {@code udp}: UDP everywhere), {@code JHPVM_AERON_DIR} (the host's Aeron
 * directory; default under /dev/shm), {@code JHPVM_HEARTBEAT_TIMEOUT_MS} (default 1500),
 * {@code JHPVM_JOIN_TIMEOUT_MS} (default 30000), {@code JHPVM_UDP_MTU} (the largest UDP datagram payload a publication
 * sends; default: its interface's MTU less the headers, see {@link UdpChannels}).
 * <p>
 * A process is part of a launched job if {@code JHPVM_RANK} is set; or if another launcher's rank variables are set
 * together with {@code JHPVM_SECRET}; or, under {@code srun} or {@code mpirun} without {@code JHPVM_SECRET}, if the
 * launcher started more than one process and names its job (a single process runs as a plain single-JVM job).
 *
 * @param rank               this process's rank
 * @param processes          number of processes
 * @param pesPerProcess      PEs in each process
 * @param hosts              host of each rank
 * @param basePort           UDP port of the first process on each host
 * @param secret             the job's secret
 * @param jobId              the job's id (names the Aeron directory)
 * @param udpOnly            UDP even between processes of one host
 * @param aeronDir           this host's Aeron directory
 * @param heartbeatTimeoutMs a process silent this long is lost
 * @param joinTimeoutMs      the join waits this long for every process
 * @param udpMtu             the largest payload of a UDP datagram, in bytes; 0 for what the link carries whole
 *                           ({@link UdpChannels})
 */
public record JobEnvironment(int rank, int processes, int pesPerProcess, List<String> hosts, int basePort,
                             byte[] secret, String jobId, boolean udpOnly, String aeronDir, long heartbeatTimeoutMs,
                             long joinTimeoutMs, int udpMtu) {
    /** Smallest accepted secret, in bytes. */
    public static final int MIN_SECRET_BYTES = 16;
    /** Default base UDP port. */
    public static final int DEFAULT_PORT = 40123;
    /** Default heartbeat timeout, in milliseconds. */
    public static final int DEFAULT_HEARTBEAT_TIMEOUT_MS = 1_500;
    /** Default join timeout, in milliseconds. */
    public static final int DEFAULT_JOIN_TIMEOUT_MS = 30_000;

    /**
     * An environment with the default UDP datagrams (no {@code JHPVM_UDP_MTU}).
     *
     * @param rank               this process's rank
     * @param processes          number of processes
     * @param pesPerProcess      PEs in each process
     * @param hosts              host of each rank
     * @param basePort           UDP port of the first process on each host
     * @param secret             the job's secret
     * @param jobId              the job's id
     * @param udpOnly            UDP even between processes of one host
     * @param aeronDir           this host's Aeron directory
     * @param heartbeatTimeoutMs a process silent this long is lost
     * @param joinTimeoutMs      the join waits this long for every process
     */
    public JobEnvironment(final int rank, final int processes, final int pesPerProcess, final List<String> hosts,
                          final int basePort, final byte[] secret, final String jobId, final boolean udpOnly,
                          final String aeronDir, final long heartbeatTimeoutMs, final long joinTimeoutMs) {
        this(rank, processes, pesPerProcess, hosts, basePort, secret, jobId, udpOnly, aeronDir, heartbeatTimeoutMs,
            joinTimeoutMs, 0);
    }

    /**
     * An environment variable {@link #from(Map)} reads.
     *
     * @param name         its name
     * @param defaultValue what is used when it is not set ("" for none: required, or ignored)
     * @param meaning      one line for people
     */
    public record Variable(String name, String defaultValue, String meaning) {
    }

    private static final List<Variable> VARIABLES = List.of(
        new Variable("JHPVM_RANK", "", "this process's rank in a job started by bin/jhpvm launch"),
        new Variable("JHPVM_PROCESSES", "", "number of processes of the job (with JHPVM_RANK)"),
        new Variable("SLURM_PROCID", "", "rank under srun, when JHPVM_RANK is not set"),
        new Variable("SLURM_NTASKS", "", "number of processes under srun"),
        new Variable("OMPI_COMM_WORLD_RANK", "", "rank under Open MPI's mpirun, when JHPVM_RANK is not set"),
        new Variable("OMPI_COMM_WORLD_SIZE", "", "number of processes under Open MPI's mpirun"),
        new Variable("PMI_RANK", "", "rank under a PMI launcher (needs JHPVM_SECRET)"),
        new Variable("PMI_SIZE", "", "number of processes under a PMI launcher"),
        new Variable("JHPVM_SECRET", "", "the job's secret, at least " + MIN_SECRET_BYTES + " characters "
            + "(authenticates the join; never on a command line; under srun or mpirun derived from the launcher's "
            + "job when not set, which keeps one user's jobs apart but is no secret from other users)"),
        new Variable("JHPVM_PES_PER_PROCESS", "1", "PEs in each process"),
        new Variable("JHPVM_HOSTS", "localhost", "host of each rank, as h1:2,h2:2 or one entry per rank (default "
            + "under srun: SLURM's node list, by block; under mpirun on one host: localhost)"),
        new Variable("JHPVM_PORT", Integer.toString(DEFAULT_PORT), "UDP port of the first process of each host; "
            + "the next ones count up"),
        new Variable("JHPVM_JOB_ID", "", "the job's id, naming its Aeron directory (default: SLURM's job and step "
            + "id, else derived from the secret)"),
        new Variable("SLURM_JOB_ID", "", "the job id under srun: the job id when JHPVM_JOB_ID is not set, and the "
            + "derived secret when JHPVM_SECRET is not"),
        new Variable("SLURM_STEP_ID", "0", "the step id under srun, with SLURM_JOB_ID"),
        new Variable("SLURM_JOB_UID", "", "the job's user under srun, in the derived secret"),
        new Variable("OMPI_MCA_ess_base_jobid", "", "Open MPI's job id under mpirun: the job id and the derived "
            + "secret"),
        new Variable("PMIX_NAMESPACE", "", "the PMIx job under mpirun, when OMPI_MCA_ess_base_jobid is not set"),
        new Variable("OMPI_MCA_orte_hnp_uri", "", "mpirun's contact address, in the derived secret"),
        new Variable("SLURM_STEP_NODELIST", "", "the step's nodes under srun (else SLURM_JOB_NODELIST), for the "
            + "hosts when JHPVM_HOSTS is not set"),
        new Variable("SLURM_JOB_NODELIST", "", "the job's nodes under srun"),
        new Variable("SLURM_STEP_TASKS_PER_NODE", "", "tasks on each node of the step (else SLURM_TASKS_PER_NODE)"),
        new Variable("SLURM_TASKS_PER_NODE", "", "tasks on each node of the job"),
        new Variable("SLURM_DISTRIBUTION", "block", "how srun placed the ranks: only block is read as hosts"),
        new Variable("SLURM_NODEID", "", "this rank's node, checked against the block placement"),
        new Variable("SLURM_LOCALID", "", "this rank's index on its node, checked against the block placement"),
        new Variable("OMPI_COMM_WORLD_LOCAL_SIZE", "", "ranks on this host under mpirun: all of them means one "
            + "host"),
        new Variable("JHPVM_TRANSPORT", "auto", "auto (IPC between processes of a host, UDP between hosts) or udp "
            + "(UDP everywhere)"),
        new Variable("JHPVM_AERON_DIR", "", "this host's Aeron directory (default: under /dev/shm, named by the job "
            + "id and host)"),
        new Variable("JHPVM_HEARTBEAT_TIMEOUT_MS", Integer.toString(DEFAULT_HEARTBEAT_TIMEOUT_MS), "a process "
            + "silent this long is lost and the job ends"),
        new Variable("JHPVM_JOIN_TIMEOUT_MS", Integer.toString(DEFAULT_JOIN_TIMEOUT_MS), "the join waits this long "
            + "for every process"),
        new Variable("JHPVM_UDP_MTU", "", "the largest UDP datagram payload a process sends to another host, a "
            + "multiple of 32 in " + UdpChannels.MIN_MTU + ".." + UdpChannels.MAX_MTU + " (default: its interface's "
            + "MTU less 48 bytes of headers, so no datagram is split into fragments)"));

    private static final String[][] RANK_SIZE = {
        {"JHPVM_RANK", "JHPVM_PROCESSES"},
        {"SLURM_PROCID", "SLURM_NTASKS"},
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"PMI_RANK", "PMI_SIZE"},
    };

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if a value is out of range
     */
    public JobEnvironment {
        if (processes < 1 || rank < 0 || rank >= processes) {
            throw new IllegalArgumentException("rank " + rank + " is not in a job of " + processes + " processes");
        }
        if (pesPerProcess < 1 || (long) pesPerProcess * processes > 65_536) {
            throw new IllegalArgumentException("pesPerProcess=" + pesPerProcess + " must be 1.." + 65_536 / processes);
        }
        hosts = List.copyOf(hosts);
        if (hosts.size() != processes) {
            throw new IllegalArgumentException("job size mismatch: " + hosts.size() + " hosts listed for "
                + processes + " processes");
        }
        if (basePort < 1 || basePort > 65_535 - processes) {
            throw new IllegalArgumentException("port " + basePort + " is out of range");
        }
        if (secret == null || secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("JHPVM_SECRET must be at least " + MIN_SECRET_BYTES + " characters");
        }
        if (heartbeatTimeoutMs < 100 || joinTimeoutMs < 100) {
            throw new IllegalArgumentException("timeouts must be at least 100 ms");
        }
    }

    /**
     * Every variable {@link #from(Map)} reads, with its default and meaning (a test checks the list against what
     * {@code from} really reads).
     *
     * @return the variables, in the order they are read
     */
    public static List<Variable> variables() {
        return VARIABLES;
    }

    /**
     * Reads the environment.
     *
     * @param env the environment (usually {@link System#getenv()})
     * @return this process's place in a launched job, or empty if it was not launched as part of one
     * @throws IllegalArgumentException if the environment describes a job badly (one line, naming the variable)
     */
    public static Optional<JobEnvironment> from(final Map<String, String> env) {
        String[] names = null;
        for (final String[] rs : RANK_SIZE) {
            if (env.get(rs[0]) != null) {
                names = rs;
                break;
            }
        }
        if (names == null) {
            return Optional.empty();
        }
        final LauncherEnvironment.Launcher launcher = LauncherEnvironment.of(names);
        final boolean ours = names[0].equals("JHPVM_RANK");
        String secret = env.get("JHPVM_SECRET");
        if (!ours && secret == null) {
            // srun or mpirun without our secret: a job of its own when it has more than one process and the launcher
            // says which job it is (the secret is derived from that: see LauncherEnvironment); else a plain run.
            final String identity = LauncherEnvironment.identity(launcher, env);
            final String size = env.get(names[1]);
            if (identity == null || size == null || size.trim().equals("1")) {
                return Optional.empty();
            }
            secret = LauncherEnvironment.derivedSecret(identity);
        }
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("JHPVM_SECRET is not set: a launched job needs its secret in the "
                + "environment (bin/jhpvm launch sets it; under srun or mpirun export one, e.g. "
                + "JHPVM_SECRET=$(openssl rand -hex 16))");
        }
        final int rank = intVar(env, names[0], 0, Integer.MAX_VALUE, -1);
        final int processes = intVar(env, names[1], 1, 65_536, -1);
        if (rank >= processes) {
            throw new IllegalArgumentException("job size mismatch: " + names[0] + "=" + rank + " but " + names[1]
                + "=" + processes);
        }
        final int ppp = intVar(env, "JHPVM_PES_PER_PROCESS", 1, 65_536, 1);
        final String hostSpec = env.get("JHPVM_HOSTS");
        List<String> hosts = null;
        if ((hostSpec == null || hostSpec.isBlank()) && !ours) {
            hosts = LauncherEnvironment.hosts(launcher, env, rank, processes);
        }
        if (hosts == null) {
            hosts = parseHosts(hostSpec == null ? "" : hostSpec, processes);
        }
        final int port = intVar(env, "JHPVM_PORT", 1, 65_535, DEFAULT_PORT);
        final byte[] key = secret.getBytes(StandardCharsets.UTF_8);
        String jobId = env.get("JHPVM_JOB_ID");
        if (jobId == null && !ours && LauncherEnvironment.identity(launcher, env) != null) {
            jobId = LauncherEnvironment.jobId(launcher, env); // SLURM's job.step, Open MPI's job id
        }
        if (jobId == null) {
            jobId = Integer.toHexString(java.util.Arrays.hashCode(key));
        }
        if (!jobId.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("JHPVM_JOB_ID=" + jobId + " must be 1-64 letters, digits, '.', '_', '-'");
        }
        final String transport = env.getOrDefault("JHPVM_TRANSPORT", "auto").toLowerCase(Locale.ROOT);
        if (!transport.equals("auto") && !transport.equals("udp")) {
            throw new IllegalArgumentException("JHPVM_TRANSPORT=" + transport + " must be auto or udp");
        }
        final int hostIndex = distinctHosts(hosts).indexOf(hosts.get(rank));
        final String dir = env.getOrDefault("JHPVM_AERON_DIR", defaultAeronDir(jobId, hostIndex));
        final long hb = intVar(env, "JHPVM_HEARTBEAT_TIMEOUT_MS", 100, 3_600_000, DEFAULT_HEARTBEAT_TIMEOUT_MS);
        final long join = intVar(env, "JHPVM_JOIN_TIMEOUT_MS", 100, 3_600_000, DEFAULT_JOIN_TIMEOUT_MS);
        final int mtu = intVar(env, "JHPVM_UDP_MTU", UdpChannels.MIN_MTU, UdpChannels.MAX_MTU, 0);
        if (mtu % 32 != 0) {
            throw new IllegalArgumentException("JHPVM_UDP_MTU=" + mtu + " must be a multiple of 32");
        }
        return Optional.of(new JobEnvironment(rank, processes, ppp, hosts, port, key, jobId, transport.equals("udp"),
            dir, hb, join, mtu));
    }

    /**
     * The largest UDP datagram payload a process sends to another host: {@code JHPVM_UDP_MTU}'s, else what a link of
     * {@code linkMtu} carries whole.
     *
     * @param requestedMtu {@code JHPVM_UDP_MTU}, or 0 if not set
     * @param linkMtu      the MTU of the process's interface, or -1 if unknown
     * @return bytes
     */
    public static int udpDatagramBytes(final int requestedMtu, final int linkMtu) {
        return UdpChannels.of(requestedMtu, linkMtu, -1, -1).mtu();
    }

    /**
     * Names the Aeron directory a host uses when {@code JHPVM_AERON_DIR} is not set: {@code jhpvm-JOBID-hINDEX}
     * under {@code /dev/shm}, or under {@code java.io.tmpdir} on a machine without {@code /dev/shm}. Every process
     * of the job computes the same name for the same host, so the processes of a host meet in one directory.
     *
     * @param jobId     the job
     * @param hostIndex index of the host among the job's distinct hosts
     * @return the default Aeron directory of that host (one per host, shared by its processes for IPC)
     */
    public static String defaultAeronDir(final String jobId, final int hostIndex) {
        final String base = new java.io.File("/dev/shm").isDirectory() ? "/dev/shm"
            : System.getProperty("java.io.tmpdir");
        return base + "/jhpvm-" + jobId + "-h" + hostIndex;
    }

    /**
     * Parses a host list: {@code h1:2,h2:2} (a count per host) or one host per rank; empty means every rank on
     * localhost.
     *
     * @param spec      the list
     * @param processes number of processes it must describe
     * @return the host of each rank
     * @throws IllegalArgumentException if the list is malformed or does not describe exactly that many processes
     */
    public static List<String> parseHosts(final String spec, final int processes) {
        final List<String> hosts = new ArrayList<>();
        if (spec.isBlank()) {
            for (int i = 0; i < processes; i++) {
                hosts.add("localhost");
            }
            return hosts;
        }
        for (final String entry : spec.split(",")) {
            final String e = entry.trim();
            final int colon = e.lastIndexOf(':');
            String host = e;
            int count = 1;
            if (colon >= 0) {
                host = e.substring(0, colon);
                try {
                    count = Integer.parseInt(e.substring(colon + 1));
                } catch (NumberFormatException ex) {
                    throw new IllegalArgumentException("host entry '" + e + "': the count after ':' is not a number");
                }
            }
            if (host.isEmpty() || count < 1 || count > 65_536) {
                throw new IllegalArgumentException("host entry '" + e + "' must be host or host:count (count >= 1)");
            }
            for (int i = 0; i < count; i++) {
                hosts.add(host);
            }
        }
        if (hosts.size() != processes) {
            throw new IllegalArgumentException("job size mismatch: hosts '" + spec + "' describe " + hosts.size()
                + " processes, the job has " + processes);
        }
        return hosts;
    }

    /**
     * Lists each host once, in the order the ranks first name it; hosts are compared as written, so two names of one
     * machine count as two hosts.
     *
     * @param hosts host of each rank
     * @return the distinct hosts in rank order of first appearance (a host's index here names its Aeron directory)
     */
    public static List<String> distinctHosts(final List<String> hosts) {
        final List<String> d = new ArrayList<>();
        for (final String h : hosts) {
            if (!d.contains(h)) {
                d.add(h);
            }
        }
        return d;
    }

    private static int intVar(final Map<String, String> env, final String name, final int min, final int max,
                              final int dflt) {
        final String v = env.get(name);
        if (v == null) {
            if (dflt < 0) {
                throw new IllegalArgumentException(name + " is not set");
            }
            return dflt;
        }
        try {
            final int n = Integer.parseInt(v.trim());
            if (n < min || n > max) {
                throw new IllegalArgumentException(name + "=" + v + " is outside " + min + ".." + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + v + " is not a number", e);
        }
    }

    /**
     * The number of PEs, and so of NICs, in the whole job: {@code processes * pesPerProcess}, at most 65,536.
     *
     * @return number of PEs in the job
     */
    public int nicCount() {
        return processes * pesPerProcess;
    }

    /**
     * Whether this process reaches rank {@code r} over Aeron IPC rather than UDP: the two run on the same host (by
     * name) and {@code JHPVM_TRANSPORT} is not {@code udp}. True for this process's own rank unless UDP is forced.
     *
     * @param r a rank
     * @return true if rank {@code r} runs on this process's host and may be reached over IPC
     * @throws IndexOutOfBoundsException if {@code r} is not {@code 0 .. processes-1}
     */
    public boolean sameHost(final int r) {
        return !udpOnly && hosts.get(r).equals(hosts.get(rank));
    }

    /**
     * The UDP port rank {@code r} receives on, so that several processes of one host do not collide.
     *
     * @param r a rank
     * @return the UDP port of rank {@code r}: the base port plus its index among its host's processes
     * @throws IndexOutOfBoundsException if {@code r} is not {@code 0 .. processes-1}
     */
    public int port(final int r) {
        int index = 0;
        for (int i = 0; i < r; i++) {
            if (hosts.get(i).equals(hosts.get(r))) {
                index++;
            }
        }
        return basePort + index;
    }

    /**
     * Whether this process starts its host's embedded media driver, which the other processes of the host connect
     * to, and so should outlive them (its fabric waits up to 5 s for their goodbyes before it closes).
     *
     * @return true if this process is the first of its host (it runs the host's Aeron media driver)
     */
    public boolean ownsDriver() {
        return hosts.indexOf(hosts.get(rank)) == rank;
    }

    /**
     * The other processes that share this process's host, and so its media driver, in rank order; a new list on
     * every call. Listed whatever {@code JHPVM_TRANSPORT} says.
     *
     * @return the ranks on this process's host other than this one
     */
    public List<Integer> hostPeers() {
        final List<Integer> r = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            if (i != rank && hosts.get(i).equals(hosts.get(rank))) {
                r.add(i);
            }
        }
        return r;
    }

    @Override
    public String toString() {
        return "JobEnvironment{rank=" + rank + ", processes=" + processes + ", pesPerProcess=" + pesPerProcess
            + ", hosts=" + hosts + ", port=" + basePort + ", jobId=" + jobId + ", udpOnly=" + udpOnly + ", aeronDir="
            + aeronDir + '}';
    }
}
