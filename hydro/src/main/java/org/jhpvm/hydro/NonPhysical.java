package org.jhpvm.hydro;

import java.util.Locale;

/**
 * The zones of a state that no gas can be in: a density, pressure or internal energy that is not positive (or not a
 * number). {@code jhpvm hydro} checks every state it writes and never writes one silently: the end state's CSV, PNGs
 * and JSON are written and named in a warning line with the count and the minima, and the run fails (exit 1); a VTK
 * snapshot is written and named in a warning; a checkpoint is not written (the last one, which a run can continue
 * from, stays), with a warning.
 *
 * @param zones               how many zones hold a non-positive (or NaN) density or internal energy
 * @param of                  the zones looked at
 * @param minDensity          the smallest density
 * @param minPressure         the smallest pressure, {@code (gamma - 1) e}
 * @param minSpecificInternal the smallest specific internal energy, {@code e / rho}
 */
public record NonPhysical(long zones, long of, double minDensity, double minPressure, double minSpecificInternal) {
    /**
     * Looks at every zone of a finished run or snapshot.
     *
     * @param s a state whose fields were read back
     * @return the count and the minima
     */
    public static NonPhysical of(final HydroRun.Snapshot s) {
        return of(s.cfg(), s.fields());
    }

    /**
     * Looks at every zone of the fields of a grid ({@code [field][zones...]} as the solver reads them back).
     *
     * @param cfg    the grid and gas
     * @param fields every field, the density first and the internal energy density second
     * @return the count and the minima
     * @throws IllegalArgumentException if {@code fields} does not hold the grid's fields
     */
    public static NonPhysical of(final HydroConfig cfg, final double[] fields) {
        long n = 1;
        for (int d = 0; d < cfg.dims(); d++) {
            n *= cfg.zones()[d];
        }
        if (fields.length != cfg.fields() * n) {
            throw new IllegalArgumentException(fields.length + " values for " + cfg.fields() + " fields of " + n
                + " zones");
        }
        final int zones = (int) n;
        long bad = 0;
        double minRho = Double.POSITIVE_INFINITY;
        double minE = Double.POSITIVE_INFINITY;
        double minSpecific = Double.POSITIVE_INFINITY;
        for (int z = 0; z < zones; z++) {
            final double rho = fields[ZeusSolver.D * zones + z];
            final double e = fields[ZeusSolver.E * zones + z];
            if (!(rho > 0) || !(e > 0)) {
                bad++;
            }
            minRho = Math.min(minRho, rho); // a NaN, once seen, stays the minimum
            minE = Math.min(minE, e);
            minSpecific = Math.min(minSpecific, e / rho);
        }
        return new NonPhysical(bad, n, minRho, (cfg.gamma() - 1) * minE, minSpecific);
    }

    /**
     * Whether any zone is non-physical.
     *
     * @return {@code zones > 0}
     */
    public boolean any() {
        return zones > 0;
    }

    /**
     * One line for a warning: the count of zones and the minima.
     *
     * @return {@code N of M zones hold a non-positive pressure or internal energy (min pressure P, min specific
     *         internal energy E, min density RHO)}
     */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d of %d zones hold a non-positive pressure or internal energy (min "
            + "pressure %.4g, min specific internal energy %.4g, min density %.4g)", zones, of, minPressure,
            minSpecificInternal, minDensity);
    }
}
