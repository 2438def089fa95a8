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
 * @param looks    how a virtual clock's look that must wait for other NICs waits, in wall time: {@code park}ed on the
 *                 NIC holding it back until that NIC reaches its time, or by {@code spin}ning, yielding and parking a
 *                 while; {@code auto} (the default) parks when the NICs outnumber this machine's cores. Wall time
 *                 only: the virtual times are the same either way
 */
public record ClockSettings(boolean virtual, String machine, Map<String, String> switches, boolean measured,
                            String looks) {
    /** The machine a virtual clock models when none is named. */
    public static final String DEFAULT_MACHINE = "sparc-sbus-1995";
    /** The wall clock. */
    public static final ClockSettings WALL = new ClockSettings(false, DEFAULT_MACHINE, Map.of(), true);
    /** How looks wait unless told: parked when the NICs outnumber the cores. */
    public static final String AUTO_LOOKS = "auto";

    /**
     * Copies the switches.
     *
     * @throws IllegalArgumentException if {@code looks} is not auto, park or spin
     */
    public ClockSettings {
        Objects.requireNonNull(machine, "machine");
        switches = Map.copyOf(switches);
        checkLooks(looks);
    }

    /**
     * Settings whose looks wait as {@link #AUTO_LOOKS} says.
     *
     * @param virtual  whether the clock is virtual
     * @param machine  the modelled machine
     * @param switches the model's switch settings
     * @param measured whether a PE's computation counts its thread's CPU time
     */
    public ClockSettings(final boolean virtual, final String machine, final Map<String, String> switches,
                         final boolean measured) {
        this(virtual, machine, switches, measured, AUTO_LOOKS);
    }

    static String checkLooks(final String looks) {
        if (!AUTO_LOOKS.equals(looks) && !"park".equals(looks) && !"spin".equals(looks)) {
            throw new IllegalArgumentException("must be auto, park or spin");
        }
        return looks;
    }

    /**
     * Whether a virtual clock's looks park on the NIC holding them back (see {@code looks}).
     *
     * @param nics the fabric's NICs
     * @return true to park
     */
    public boolean parkLooks(final int nics) {
        return switch (looks) {
            case "park" -> true;
            case "spin" -> false;
            default -> nics > Runtime.getRuntime().availableProcessors();
        };
    }

    /**
     * These settings as the {@code fabric.*} options a job builder takes ({@code fabric.clock}, {@code fabric.machine},
     * {@code fabric.cpu}, {@code fabric.looks}, {@code fabric.model.SWITCH}): for the layers above, whose jobs are
     * configured by options.
     *
     * @return option key to value, in a stable order; empty for the wall clock (its default)
     */
    public Map<String, String> options() {
        final Map<String, String> out = new java.util.LinkedHashMap<>();
        if (virtual) {
            out.put("fabric.clock", "virtual");
            out.put("fabric.machine", machine);
            out.put("fabric.cpu", measured ? "measured" : "declared");
            if (!AUTO_LOOKS.equals(looks)) {
                out.put("fabric.looks", looks);
            }
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
