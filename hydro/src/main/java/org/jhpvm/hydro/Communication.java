package org.jhpvm.hydro;

import java.util.Locale;

/**
 * The layer the ZEUS solver communicates through ({@code jhpvm hydro --comm}). The solver's arithmetic is the same
 * on both, and every value is computed by its owner from the same inputs, so the fields come out bitwise the same.
 */
public enum Communication {
    /**
     * Global Arrays (the default): the fields are one GA array distributed by GA, ghosts filled by GA's ghost update,
     * reductions by {@code gop}.
     */
    GA,
    /**
     * MPI, as Zeus-MP runs on HPVM: a Cartesian communicator, the halo exchange by {@code sendRecv} of subarray types,
     * reductions by {@code allReduce}.
     */
    MPI;

    /**
     * The name the command line and input decks use.
     *
     * @return {@code ga} or {@code mpi}
     */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The layer of a command-line or deck value.
     *
     * @param key {@code ga} or {@code mpi}
     * @return the layer
     * @throws IllegalArgumentException for any other value
     */
    public static Communication of(final String key) {
        for (final Communication c : values()) {
            if (c.key().equals(key)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--comm " + key + ": ga or mpi");
    }
}
