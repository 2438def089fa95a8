package org.jhpvm.hydro;

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
     * ZEUS-MP's total-energy option with the dual-energy formalism: the work of pressure and viscosity enters as the
     * divergence of a flux, total energy is advected conservatively, and the internal energy is recovered at the end
     * of each cycle as the total minus the kinetic energy; beside it the internal energy is evolved by its own
     * equation (the internal scheme's heating and advection), and a zone whose total less kinetic energy is below
     * {@link #DUAL_ENERGY_ETA} of its total, or not positive, takes that one instead. The total is never changed by
     * the choice: what it holds beyond the chosen internal energy and the kinetic energy is kept in a field of its
     * own ({@link ZeusSolver#dualEnergyField}). Total energy is conserved to round-off on closed boundaries, and the
     * pressure stays positive.
     */
    TOTAL;

    /**
     * The dual-energy threshold: where a zone's total less its kinetic energy is less than this part of its total,
     * the truncation error of the difference may exceed it (the staggered momentum advection moves momentum a face
     * ahead of mass and energy in front of a strong shock; cold supersonic inflow), and the separately evolved
     * internal energy is used. ENZO's {@code DualEnergyFormalismEta1}, Bryan et al. 1995's eta. One threshold both
     * selects and resynchronises: where the total's internal energy is taken, the separate one is reset to it.
     */
    public static final double DUAL_ENERGY_ETA = 0.1;

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
