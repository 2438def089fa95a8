package org.jhpvm.apps.hydro;

import java.util.Locale;

/**
 * Which energy the ZEUS solver evolves ({@code jhpvm hydro --energy}). Between cycles the energy field always holds
 * the internal energy density, so output, checkpoints and analysis read the same quantity under both schemes.
 */
public enum EnergyScheme {
    /**
     * ZEUS's own scheme: internal energy, heated by compressional work (implicit, time-centred) and artificial
     * viscosity, advected with the mass fluxes. Total energy is conserved only approximately.
     */
    INTERNAL,
    /**
     * ZEUS-MP's total-energy option: the work of pressure and viscosity enters as the divergence of a flux, total
     * energy is advected conservatively, and the internal energy is recovered at the end of each cycle as the total
     * minus the kinetic energy, with a floor. Total energy is conserved to round-off on closed boundaries.
     */
    TOTAL;

    /**
     * The name the command line and input decks use.
     *
     * @return {@code internal} or {@code total}
     */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The scheme of a command-line or deck value.
     *
     * @param key {@code internal} or {@code total}
     * @return the scheme
     * @throws IllegalArgumentException for any other value
     */
    public static EnergyScheme of(final String key) {
        for (final EnergyScheme e : values()) {
            if (e.key().equals(key)) {
                return e;
            }
        }
        throw new IllegalArgumentException("--energy " + key + ": internal or total");
    }
}
