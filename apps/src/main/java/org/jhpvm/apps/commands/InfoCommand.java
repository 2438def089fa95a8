package org.jhpvm.apps.commands;

import org.jhpvm.apps.Reports;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.aeron.AeronFabric;
import org.jhpvm.fabric.aeron.JobEnvironment;
import org.jhpvm.fabric.timing.MachineFiles;
import org.jhpvm.fabric.timing.MachineModel;
import org.jhpvm.runtime.JobOptions;
import org.jhpvm.runtime.Jhpvm;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jhpvm info [--all] [--json FILE]}: what this jhpvm is, as {@code oshmem_info}, {@code ompi_info} and
 * {@code ga-config} tell theirs: version, API levels, modules, fabrics and their capabilities, and with {@code --all}
 * every configuration key and environment variable, read from the tables the code parses them with.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
    description = {"Prints jhpvm's version, the API levels it implements (OpenSHMEM, Global Arrays, Fast Messages, "
        + "MPI), its modules, the fabrics and what each guarantees; with --all also every configuration key "
        + "(--option KEY=VALUE of run) with its type, default and meaning, and the environment variables."})
public final class InfoCommand implements Callable<Integer> {
    /** A module of jhpvm: its artifact, API package, the module below it, and what it gives. */
    record Module(String artifact, String apiPackage, String dependsOn, String gives) {
    }

    /** A fabric, what it guarantees, and how its waiting threads are woken across processes (null: one JVM). */
    record Fabric(String name, String use, FabricCapabilities capabilities, String waiting) {
    }

    /** An environment variable of the tools (the launched job's are {@link JobEnvironment#variables()}). */
    record ToolVariable(String name, String meaning) {
    }

    static final List<Module> MODULES = List.of(
        new Module("fabric-emulator", "org.jhpvm.fabric", "-", "the fabric SPI and the emulated Myrinet"),
        new Module("fabric-aeron", "org.jhpvm.fabric.aeron", "fabric-emulator (the SPI)",
            "the fabric SPI over Aeron: jobs of several processes and hosts"),
        new Module("fm-transport", "org.jhpvm.fm", "fabric-emulator (the SPI)", "Illinois Fast Messages 1.x and 2.x"),
        new Module("shmem", "org.jhpvm.shmem", "fm-transport", "OpenSHMEM on Fast Messages"),
        new Module("global-arrays", "org.jhpvm.ga", "shmem", "Global Arrays on SHMEM"),
        new Module("mpi", "mpi, org.jhpvm.mpi", "fm-transport",
            "MPI-FM with the Open MPI Java bindings' API, and FPVM's PVM 3 face"),
        new Module("runtime", "org.jhpvm.runtime", "global-arrays, shmem, mpi",
            "users' programs: Jhpvm, the program runner of 'run'"),
        new Module("apps", "org.jhpvm.apps", "every layer", "bin/jhpvm: samples, hydro, benchmarks, launch, run"));

    static final List<Fabric> FABRICS = List.of(
        new Fabric("emulated-myrinet", "one JVM (the default); a fault plan switches off what it breaks",
            EmulatedMyrinet.capabilities(FaultPlan.none()), null),
        new Fabric("aeron", "jobs of processes (bin/jhpvm launch): IPC within a host, UDP between hosts",
            AeronFabric.CAPABILITIES, AeronFabric.waitingAcrossProcesses()),
        new Fabric("virtual-myrinet", "one JVM on a modelled machine's clock (fabric.clock=virtual, fabric.machine): "
            + "RDMA and NIC handlers carried in frames", new FabricCapabilities(true, true, true, false, true, false),
            null));

    static final List<ToolVariable> TOOL_VARIABLES = List.of(
        new ToolVariable("JHPVM_JAVA_OPTS", "extra JVM options for bin/jhpvm (e.g. -Xmx8g)"),
        new ToolVariable("JHPVM_DEBUG", "set: print stack traces of errors, as --debug does"));

    /** API levels: what each layer implements, in the words its users know. */
    static final List<String[]> APIS = List.of(
        new String[] {"openshmem", "OpenSHMEM " + Shmem.MAJOR_VERSION + "." + Shmem.MINOR_VERSION + " ("
            + Shmem.VENDOR_STRING + "); from 1.6: ibput/ibget; thread levels SINGLE to MULTIPLE (FUNNELED unless asked: "
            + "run --thread-level, Jhpvm.shmem(args, level, body), shmem.threadLevel)"},
        new String[] {"global_arrays", "Global Arrays 5.x (NGA_* families): create (regular, irregular, ghosts), "
            + "distribution and locate, access, put/get/acc (blocking, non-blocking, strided, periodic), "
            + "scatter/gather, readInc, sync/fence, mutexes, ghost updates, whole-array and patch algebra, dgemm, "
            + "gop/brdcst, processor groups"},
        new String[] {"fast_messages", "Illinois Fast Messages 1.x (send4, send, extract) and 2.x (beginMessage/"
            + "sendPiece/endMessage, receive, extract(maxBytes)): reliable, ordered, exactly once, flow-controlled"},
        new String[] {"mpi", "MPI-FM: the Open MPI Java bindings' API (package mpi, MPI " + mpi.MPI.VERSION + "."
            + mpi.MPI.SUBVERSION + " calls): point-to-point, requests, persistent and buffered sends, collectives, "
            + "communicators, groups, Cartesian topologies, derived datatypes, MINLOC/MAXLOC pairs; thread level "
            + "FUNNELED; FPVM's PVM 3 message interface (org.jhpvm.mpi.pvm)"});

    @Option(names = "--all", description = "Also every configuration key and environment variable (default: "
        + "off).")
    private boolean all;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the same as JSON (default: none).")
    private Path json;

    /** Creates the {@code jhpvm info} command; picocli calls this reflectively, then sets the options given. */
    public InfoCommand() {
    }

    @Override
    public Integer call() throws IOException {
        print(System.out);
        if (json != null) {
            Reports.writeJson(json, toJson());
        }
        return 0;
    }

    private void print(final PrintStream out) {
        out.println("jhpvm " + Jhpvm.version() + " (Java " + Runtime.version() + ", " + System.getProperty(
            "java.home") + ")");
        out.println();
        out.println("APIs:");
        for (final String[] api : APIS) {
            out.printf("  %-14s %s%n", api[0], api[1]);
        }
        out.println();
        out.println("Modules (each requires only the one below; artifacts org.jhpvm:ARTIFACT:" + Jhpvm.version()
            + "):");
        for (final Module m : MODULES) {
            out.printf("  %-16s %-24s on %-26s %s%n", m.artifact(), m.apiPackage(), m.dependsOn(), m.gives());
        }
        out.println();
        out.println("Fabrics:");
        for (final Fabric f : FABRICS) {
            final FabricCapabilities c = f.capabilities();
            out.printf("  %-17s reliable=%s ordered=%s flow-controlled=%s buffered=%s rdma=%s nic-handlers=%s%n",
                f.name(), c.reliable(), c.ordered(), c.flowControlled(), c.buffered(), c.remoteDma(), c.nicHandlers());
            out.printf("  %-17s %s%n", "", f.use());
            if (f.waiting() != null) {
                out.printf("  %-17s waiting: %s%n", "", f.waiting());
            }
        }
        out.println();
        final List<ShmemOption> options = JobOptions.known();
        if (!all) {
            out.println(options.size() + " configuration keys (" + keyCounts(options) + "; Global Arrays has none) and "
                + JobEnvironment.variables().size() + " environment variables: jhpvm info --all");
            return;
        }
        out.println("Configuration keys (bin/jhpvm run --option KEY=VALUE; ShmemJob.Builder.option):");
        for (final ShmemOption o : options) {
            out.printf("  %-28s %-12s %-10s %s%n", o.key(), o.type(), o.defaultValue(), o.meaning());
        }
        out.println("  (Global Arrays: no keys of its own)");
        out.println();
        out.println("Machines of the virtual clock (fabric.clock=virtual, fabric.machine=NAME; their switches: "
            + "fabric.model.SWITCH=CHOICE, or bench --model SWITCH=CHOICE):");
        for (final String name : MachineFiles.BUNDLED) {
            final MachineModel m = MachineFiles.load(name, java.util.Map.of());
            out.printf("  %-16s %s%n", name, m.description());
            MachineFiles.switches(name).forEach((k, v) -> out.printf("  %-16s   %-10s %s%n", "", k, v));
        }
        final java.nio.file.Path measured = MachineFiles.machineDirectory().resolve(MachineFiles.THIS_MACHINE
            + ".json");
        out.printf("  %-16s %s%n", MachineFiles.THIS_MACHINE, java.nio.file.Files.isRegularFile(measured)
            ? "this host, measured by bin/jhpvm calibrate (" + measured + ")"
            : "this host: not measured yet (bin/jhpvm calibrate writes " + measured + ")");
        out.println();
        out.println("Environment of a launched job's processes (set by bin/jhpvm launch, or by you under srun/mpirun):");
        for (final JobEnvironment.Variable v : JobEnvironment.variables()) {
            out.printf("  %-28s %-10s %s%n", v.name(), v.defaultValue().isEmpty() ? "-" : v.defaultValue(),
                v.meaning());
        }
        out.println();
        out.println("Environment of bin/jhpvm:");
        for (final ToolVariable v : TOOL_VARIABLES) {
            out.printf("  %-28s %s%n", v.name(), v.meaning());
        }
    }

    /** "shmem.*: 3, mpi.*: 2, ..." in the order the keys come, from the one list of keys. */
    static String keyCounts(final List<ShmemOption> options) {
        final java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        for (final ShmemOption o : options) {
            counts.merge(o.key().substring(0, o.key().indexOf('.') + 1) + "*", 1, Integer::sum);
        }
        final StringBuilder b = new StringBuilder();
        counts.forEach((prefix, n) -> b.append(b.isEmpty() ? "" : ", ").append(prefix).append(' ').append(n));
        return b.toString();
    }

    private ObjectNode toJson() {
        final ObjectNode root = Reports.object();
        root.put("version", Jhpvm.version());
        root.put("java", Runtime.version().toString());
        final ObjectNode apis = root.putObject("apis");
        for (final String[] api : APIS) {
            apis.put(api[0], api[1]);
        }
        root.putObject("openshmem").put("major", Shmem.MAJOR_VERSION).put("minor", Shmem.MINOR_VERSION)
            .put("vendor", Shmem.VENDOR_STRING);
        final ArrayNode modules = root.putArray("modules");
        for (final Module m : MODULES) {
            modules.addObject().put("artifact", m.artifact()).put("package", m.apiPackage())
                .put("depends_on", m.dependsOn()).put("gives", m.gives());
        }
        final ArrayNode fabrics = root.putArray("fabrics");
        for (final Fabric f : FABRICS) {
            final FabricCapabilities c = f.capabilities();
            final ObjectNode o = fabrics.addObject().put("name", f.name()).put("use", f.use())
                .put("reliable", c.reliable()).put("ordered", c.ordered()).put("flow_controlled", c.flowControlled())
                .put("buffered", c.buffered()).put("rdma", c.remoteDma()).put("nic_handlers", c.nicHandlers());
            if (f.waiting() != null) {
                o.put("waiting", f.waiting());
            }
        }
        if (all) {
            final ArrayNode options = root.putArray("options");
            for (final ShmemOption o : JobOptions.known()) {
                options.addObject().put("key", o.key()).put("type", o.type()).put("default", o.defaultValue())
                    .put("meaning", o.meaning());
            }
            final ArrayNode machines = root.putArray("machines");
            for (final String name : MachineFiles.BUNDLED) {
                final ObjectNode m = machines.addObject().put("name", name)
                    .put("description", MachineFiles.load(name, java.util.Map.of()).description());
                final ObjectNode sw = m.putObject("switches");
                MachineFiles.switches(name).forEach(sw::put);
            }
            final ArrayNode env = root.putArray("environment");
            for (final JobEnvironment.Variable v : JobEnvironment.variables()) {
                env.addObject().put("name", v.name()).put("default", v.defaultValue()).put("meaning", v.meaning())
                    .put("scope", "launched job");
            }
            for (final ToolVariable v : TOOL_VARIABLES) {
                env.addObject().put("name", v.name()).put("default", "").put("meaning", v.meaning())
                    .put("scope", "bin/jhpvm");
            }
        }
        return root;
    }
}
