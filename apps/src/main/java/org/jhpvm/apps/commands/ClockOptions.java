package org.jhpvm.apps.commands;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Launched;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.timing.MachineModel;
import picocli.CommandLine.Option;

/**
 * The clock options of a bench that also runs on a modelled machine ({@code --clock}, {@code --machine},
 * {@code --model}), as a picocli mixin, with the checks every such bench makes.
 */
final class ClockOptions {
    @Option(names = "--clock", paramLabel = "wall|virtual", description = "The clock: wall (this machine, the "
        + "default) or virtual (the modelled machine's time; see --machine and --model).")
    private String clock = "wall";

    @Option(names = "--machine", paramLabel = "NAME|FILE", description = "The machine a virtual clock models "
        + "(sparc-sbus-1995, ppro-pci-1998, modern-100g, this-machine after bin/jhpvm calibrate, or a machine file; "
        + "default: ${DEFAULT-VALUE}).")
    private String machine = ClockSettings.DEFAULT_MACHINE;

    @Option(names = "--model", paramLabel = "KEY=VALUE", description = "A switch of the machine's model "
        + "(repeatable; info --all lists them; default: the machine's own choices).")
    private Map<String, String> model = new LinkedHashMap<>();

    /**
     * Whether the bench runs on a virtual clock; refuses an unknown clock, and a machine or switch without one.
     *
     * @return true for {@code --clock virtual}
     */
    boolean virtual() {
        if (clock.equals("virtual")) {
            return true;
        }
        if (!clock.equals("wall")) {
            throw new IllegalArgumentException("--clock " + clock + ": must be wall or virtual");
        }
        if (!model.isEmpty() || !machine.equals(ClockSettings.DEFAULT_MACHINE)) {
            throw new IllegalArgumentException("--machine and --model describe a virtual clock: add --clock virtual");
        }
        return false;
    }

    /**
     * The virtual clock these options ask for, computation declared (none of this machine's CPU time counts).
     *
     * @return the settings
     */
    ClockSettings declared() {
        return new ClockSettings(true, machine, model, false);
    }

    /**
     * Refuses a virtual-clock bench under {@code launch}, and a machine or switch that does not load.
     *
     * @param settings the clock
     */
    static void checkInProcess(final ClockSettings settings) {
        if (Launched.environment().isPresent()) {
            throw new IllegalArgumentException("--clock virtual runs the emulated Myrinet in one JVM: run it without "
                + "launch");
        }
        settings.model(); // a bad machine or switch fails here, before anything runs
    }

    /**
     * Writes the {@code config} of a virtual-clock report whose runs move frames of the model: how many NICs or PEs
     * ({@code countKey}), the clock, the machine, the frame size, the wall time it took and the model's switches.
     *
     * @param root        the report
     * @param countKey    {@code nics} or {@code pes}
     * @param count       how many
     * @param machine     the machine modelled
     * @param frameBytes  the fabric's frame size
     * @param wallSeconds the run's wall time
     */
    static void virtualConfig(final ObjectNode root, final String countKey, final int count, final MachineModel machine,
        final int frameBytes, final double wallSeconds) {
        final ObjectNode cfg = root.putObject("config").put(countKey, count).put("clock", "virtual")
            .put("machine", machine.name()).put("frame_bytes", frameBytes).put("wall_seconds", wallSeconds);
        final ObjectNode sw = cfg.putObject("model");
        machine.switches().forEach(sw::put);
    }
}
