package org.jhpvm.fm;

import java.util.Locale;

/**
 * How the PE threads of a job in one process share its cores (FM-DCS, after Sobalvarro and Chien's dynamic
 * coscheduling). Whatever the policy, a PE that waits spins only while no other PE wants its core, then blocks in
 * the NIC, which wakes it when a frame arrives for it. {@link #NONE} is the default: measured on 2 cores, the run
 * slots of {@link #DCS} cost a hand-over (a thread wake-up) at every barrier round a PE waits for, and the ZEUS code
 * on 4 and 8 PEs runs 20-30% slower with them than with the operating system's scheduling (see the module README).
 */
public enum Scheduling {
    /** Every PE thread runs when the operating system runs it: no run slots (the default). */
    NONE,
    /**
     * Dynamic coscheduling: at most as many PE threads run as there are cores; a PE that blocks gives its run slot
     * up, and a PE woken by a message gets the next free slot before PEs that have not run for a while, unless one of
     * those has waited a whole quantum.
     */
    DCS,
    /**
     * Gang scheduling, to compare with: the PEs form gangs of as many PEs as there are cores (by PE number), and
     * only the current gang's PEs get run slots; the gangs take turns, a quantum each.
     */
    GANG;

    /**
     * Parses a policy's name, in any case.
     *
     * @param name {@code none}, {@code dcs} or {@code gang}
     * @return the policy
     * @throws IllegalArgumentException naming the accepted names
     */
    public static Scheduling parse(final String name) {
        for (final Scheduling s : values()) {
            if (s.name().equalsIgnoreCase(name.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a scheduling policy (none, dcs or gang)");
    }

    /** @return the lower-case name options and JSON use */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
