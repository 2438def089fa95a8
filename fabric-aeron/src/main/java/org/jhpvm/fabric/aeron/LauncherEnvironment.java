package org.jhpvm.fabric.aeron;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What a cluster's own launcher tells a process about its job, for a job started by {@code srun} (SLURM) or
 * {@code mpirun} (Open MPI) without {@code JHPVM_HOSTS} or {@code JHPVM_SECRET}: the host of every rank, and a job
 * id and secret derived from the launcher's job.
 * <ul>
 * <li><b>SLURM</b>: the step's node list ({@code SLURM_STEP_NODELIST}, else {@code SLURM_JOB_NODELIST}, SLURM's
 * compressed form {@code n[01-03],gpu7}) and tasks per node ({@code SLURM_STEP_TASKS_PER_NODE}, else
 * {@code SLURM_TASKS_PER_NODE}, as {@code 2(x3),1}), ranks placed by block as {@code srun} places them by default.
 * A step placed otherwise ({@code SLURM_DISTRIBUTION} not {@code block}), or a rank whose {@code SLURM_NODEID} and
 * {@code SLURM_LOCALID} disagree with the block placement, is refused: the hosts must then be given.</li>
 * <li><b>Open MPI</b>: a job whose ranks all run on this host ({@code OMPI_COMM_WORLD_LOCAL_SIZE} equals
 * {@code OMPI_COMM_WORLD_SIZE}) runs every rank on {@code localhost}. Open MPI does not tell a process where the
 * other hosts' ranks run (only PMIx, which a JVM cannot reach, does), so a job over several hosts needs
 * {@code JHPVM_HOSTS}.</li>
 * </ul>
 * The derived secret is a SHA-256 of the launcher's job identity ({@code SLURM_JOB_ID}, step and user; Open MPI's
 * job id and its launcher's contact URI). It is <em>not</em> a secret against another user of the same nodes who
 * knows or guesses those values (job ids are public in {@code squeue} and {@code ps}; the launcher's URI differs
 * per run only by its port): it keeps jobs of one user apart, nothing more. On shared nodes export
 * {@code JHPVM_SECRET}.
 */
final class LauncherEnvironment {
    private LauncherEnvironment() {
    }

    /** Which launcher started a process without jhpvm's own variables. */
    enum Launcher {
        SLURM, OPEN_MPI, OTHER
    }

    static Launcher of(final String[] rankSize) {
        return switch (rankSize[0]) {
            case "SLURM_PROCID" -> Launcher.SLURM;
            case "OMPI_COMM_WORLD_RANK" -> Launcher.OPEN_MPI;
            default -> Launcher.OTHER;
        };
    }

    /**
     * The job identity the launcher gives, from which a secret and a job id may be derived, or null if it gives none.
     */
    static String identity(final Launcher launcher, final Map<String, String> env) {
        switch (launcher) {
            case SLURM -> {
                final String job = env.get("SLURM_JOB_ID");
                return job == null ? null : "slurm/" + job + "." + env.getOrDefault("SLURM_STEP_ID", "0") + "/"
                    + env.getOrDefault("SLURM_JOB_UID", "");
            }
            case OPEN_MPI -> {
                String job = env.get("OMPI_MCA_ess_base_jobid");
                if (job == null) {
                    job = env.get("PMIX_NAMESPACE");
                }
                return job == null ? null : "ompi/" + job + "/" + env.getOrDefault("OMPI_MCA_orte_hnp_uri", "");
            }
            default -> {
                return null;
            }
        }
    }

    /** The job id jhpvm uses for a launcher's job (names the Aeron directories): short, and the same on every rank. */
    static String jobId(final Launcher launcher, final Map<String, String> env) {
        final String id = switch (launcher) {
            case SLURM -> env.get("SLURM_JOB_ID") + "." + env.getOrDefault("SLURM_STEP_ID", "0");
            case OPEN_MPI -> "ompi-" + (env.get("OMPI_MCA_ess_base_jobid") != null ? env.get("OMPI_MCA_ess_base_jobid")
                : env.get("PMIX_NAMESPACE"));
            default -> throw new IllegalStateException("no job id from " + launcher);
        };
        // A directory name: PMIx namespaces may hold '@' and be long.
        final String safe = id.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.length() <= 64 ? safe : safe.substring(0, 40) + "-" + derivedSecret(id).substring(0, 16);
    }

    /** A secret derived from the launcher's job identity (see the class comment for what it protects). */
    static String derivedSecret(final String identity) {
        try {
            final byte[] h = MessageDigest.getInstance("SHA-256")
                .digest(("jhpvm derived job secret\n" + identity).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    /**
     * The host of each rank as the launcher placed them, in {@code JHPVM_HOSTS}'s one-entry-per-rank form, or null
     * if the launcher does not say (the caller's default then applies).
     *
     * @throws IllegalArgumentException if the launcher's variables cannot describe this job (naming the variable)
     */
    static List<String> hosts(final Launcher launcher, final Map<String, String> env, final int rank,
        final int processes) {
        return switch (launcher) {
            case SLURM -> slurmHosts(env, rank, processes);
            case OPEN_MPI -> openMpiHosts(env, processes);
            default -> null;
        };
    }

    private static List<String> openMpiHosts(final Map<String, String> env, final int processes) {
        final String local = env.get("OMPI_COMM_WORLD_LOCAL_SIZE");
        if (local == null) {
            return null;
        }
        if (!local.trim().equals(Integer.toString(processes))) {
            throw new IllegalArgumentException("JHPVM_HOSTS is not set and this mpirun job spans several hosts "
                + "(OMPI_COMM_WORLD_LOCAL_SIZE=" + local.trim() + " of OMPI_COMM_WORLD_SIZE=" + processes + "): Open "
                + "MPI does not tell a process where the other hosts' ranks run; pass the host of each rank, e.g. "
                + "mpirun -x JHPVM_HOSTS=h1:2,h2:2 ...");
        }
        final List<String> hosts = new ArrayList<>(processes);
        for (int i = 0; i < processes; i++) {
            hosts.add("localhost");
        }
        return hosts;
    }

    private static List<String> slurmHosts(final Map<String, String> env, final int rank, final int processes) {
        final String nodesVar = env.get("SLURM_STEP_NODELIST") != null ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
        final String tasksVar = env.get("SLURM_STEP_TASKS_PER_NODE") != null ? "SLURM_STEP_TASKS_PER_NODE"
            : "SLURM_TASKS_PER_NODE";
        final String nodeList = env.get(nodesVar);
        final String tasks = env.get(tasksVar);
        if (nodeList == null || tasks == null) {
            return null;
        }
        final String distribution = env.get("SLURM_DISTRIBUTION");
        if (distribution != null && !distribution.startsWith("block")) {
            throw new IllegalArgumentException("JHPVM_HOSTS is not set and SLURM_DISTRIBUTION=" + distribution
                + " places ranks other than by block: pass the host of each rank in JHPVM_HOSTS, or run srun with "
                + "--distribution=block");
        }
        final List<String> nodes = expandNodeList(nodeList, nodesVar);
        final List<Integer> perNode = tasksPerNode(tasks, tasksVar);
        if (nodes.size() != perNode.size()) {
            throw new IllegalArgumentException(nodesVar + "=" + nodeList + " names " + nodes.size() + " nodes but "
                + tasksVar + "=" + tasks + " gives tasks for " + perNode.size());
        }
        final List<String> hosts = new ArrayList<>(processes);
        for (int n = 0; n < nodes.size(); n++) {
            for (int t = 0; t < perNode.get(n); t++) {
                hosts.add(nodes.get(n));
            }
        }
        if (hosts.size() != processes) {
            throw new IllegalArgumentException("job size mismatch: " + tasksVar + "=" + tasks + " gives "
                + hosts.size() + " tasks, SLURM_NTASKS=" + processes);
        }
        final int node = nodes.indexOf(hosts.get(rank));
        final int localId = rank - hosts.indexOf(hosts.get(rank));
        if (!matches(env.get("SLURM_NODEID"), node) || !matches(env.get("SLURM_LOCALID"), localId)) {
            throw new IllegalArgumentException("JHPVM_HOSTS is not set and rank " + rank + " is not where a block "
                + "placement puts it (SLURM_NODEID=" + env.get("SLURM_NODEID") + ", SLURM_LOCALID="
                + env.get("SLURM_LOCALID") + "; block: node " + node + ", local " + localId + "): pass the host of "
                + "each rank in JHPVM_HOSTS");
        }
        return hosts;
    }

    private static boolean matches(final String value, final int expected) {
        return value == null || value.trim().equals(Integer.toString(expected));
    }

    /**
     * Expands SLURM's compressed host list: entries separated by commas outside brackets, each a name with bracket
     * groups of numbers and ranges ({@code n[01-03,7]}, {@code r[1-2]n[1-2]}), zero padding kept.
     *
     * @throws IllegalArgumentException if the list is malformed (naming {@code var})
     */
    static List<String> expandNodeList(final String list, final String var) {
        final List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            final char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            }
            if (depth < 0 || depth > 1) {
                throw new IllegalArgumentException(var + "=" + list + ": unbalanced brackets");
            }
            if (c == ',' && depth == 0) {
                final String entry = list.substring(start, i).trim();
                if (entry.isEmpty()) {
                    throw new IllegalArgumentException(var + "=" + list + ": an empty host name");
                }
                expand(entry, out, var, list);
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException(var + "=" + list + ": unbalanced brackets");
        }
        return out;
    }

    private static void expand(final String entry, final List<String> out, final String var, final String list) {
        final int open = entry.indexOf('[');
        if (open < 0) {
            out.add(entry);
            return;
        }
        final int close = entry.indexOf(']', open);
        final String prefix = entry.substring(0, open);
        final String rest = entry.substring(close + 1);
        for (final String range : entry.substring(open + 1, close).split(",")) {
            final String r = range.trim();
            final int dash = r.indexOf('-');
            final String lo = dash < 0 ? r : r.substring(0, dash);
            final String hi = dash < 0 ? r : r.substring(dash + 1);
            if (!lo.matches("[0-9]{1,9}") || !hi.matches("[0-9]{1,9}")) {
                throw new IllegalArgumentException(var + "=" + list + ": '" + r + "' is not a number or range");
            }
            final int a = Integer.parseInt(lo);
            final int b = Integer.parseInt(hi);
            if (b < a || b - a >= 65_536) {
                throw new IllegalArgumentException(var + "=" + list + ": range '" + r + "' is empty or too long");
            }
            for (int n = a; n <= b; n++) {
                final String digits = Integer.toString(n);
                final String padded = "0".repeat(Math.max(0, lo.length() - digits.length())) + digits;
                expand(prefix + padded + rest, out, var, list);
            }
        }
    }

    /**
     * Expands SLURM's tasks per node: {@code 2(x3),1} is 2, 2, 2, 1.
     *
     * @throws IllegalArgumentException if malformed (naming {@code var})
     */
    static List<Integer> tasksPerNode(final String spec, final String var) {
        final List<Integer> out = new ArrayList<>();
        for (final String part : spec.split(",")) {
            final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*([0-9]{1,6})(?:\\(x([0-9]{1,6})\\))?"
                + "\\s*").matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException(var + "=" + spec + ": '" + part + "' is not N or N(xM)");
            }
            final int n = Integer.parseInt(m.group(1));
            final int times = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            if (n < 1 || times < 1 || out.size() + times > 65_536) {
                throw new IllegalArgumentException(var + "=" + spec + ": '" + part + "' is out of range");
            }
            for (int i = 0; i < times; i++) {
                out.add(n);
            }
        }
        return out;
    }
}
