package org.jhpvm.fabric;

import java.util.Map;
import java.util.Objects;

import org.jhpvm.fabric.timing.MachineFiles;
import org.jhpvm.fabric.timing.MachineModel;

/**
 * Which clock a fabric keeps: the wall clock (frames move at this machine's speed: the default), or a virtual clock
 * per NIC that keeps the time of a modelled machine ({@code fabric.clock=virtual}).
 *
 * @param virtual  whether the clock is virtual
 * @param machine  the modelled machine: a bundled machine's name or a machine file's path
 * @param switches the model's switch settings (switch name to choice); the others stay at their defaults
 * @param measured whether a PE's computation between fabric calls counts its thread's CPU time (scaled by the
 *                 machine's {@code cpu_scale}); if false it counts only what the program declares with
 *                 {@link VirtualTime#charge(long)}, and the virtual times of a run do not depend on this machine
 */
public record ClockSettings(boolean virtual, String machine, Map<String, String> switches, boolean measured) {
    /** The machine a virtual clock models when none is named. */
    public static final String DEFAULT_MACHINE = "sparc-sbus-1995";
    /** The wall clock. */
    public static final ClockSettings WALL = new ClockSettings(false, DEFAULT_MACHINE, Map.of(), true);

    /** Copies the switches. */
    public ClockSettings {
        Objects.requireNonNull(machine, "machine");
        switches = Map.copyOf(switches);
    }

    /**
     * These settings as the {@code fabric.*} options a job builder takes ({@code fabric.clock}, {@code fabric.machine},
     * {@code fabric.cpu}, {@code fabric.model.SWITCH}): for the layers above, whose jobs are configured by options.
     *
     * @return option key to value, in a stable order; empty for the wall clock (its default)
     */
    public Map<String, String> options() {
        final Map<String, String> out = new java.util.LinkedHashMap<>();
        if (virtual) {
            out.put("fabric.clock", "virtual");
            out.put("fabric.machine", machine);
            out.put("fabric.cpu", measured ? "measured" : "declared");
            switches.forEach((k, v) -> out.put("fabric.model." + k, v));
        }
        return out;
    }

    /**
     * Reads the machine with these switches.
     *
     * @return the model
     * @throws IllegalArgumentException naming the key, if the machine file or a switch is not valid
     */
    public MachineModel model() {
        return MachineFiles.load(machine, switches);
    }
}
