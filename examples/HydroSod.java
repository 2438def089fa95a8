import java.util.Map;

import org.jhpvm.hydro.EnergyScheme;
import org.jhpvm.hydro.Hydro;

/**
 * The hydrodynamics code as a library: Sod's shock tube (the problem {@code bin/jhpvm hydro sod} runs) on 2 PEs
 * from a program's own {@code main}, at two resolutions, checked against the exact Riemann solution: the L1 error of
 * the density must be small and must fall as the grid is refined, mass and (with the total-energy scheme) energy
 * must be conserved to round-off, and no zone may have a negative pressure. The program starts the hydro job itself, so
 * run it on one PE:
 *
 * <pre>bin/jhpvm run --pes 1 examples/HydroSod.java [zones]</pre>
 */
public class HydroSod {
    public static void main(String[] args) {
        final int zones = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        final Hydro.Result coarse = Hydro.problem("sod").zones(zones / 2).pes(2).run();
        final Hydro.Result fine = Hydro.problem("sod").zones(zones).pes(2).energy(EnergyScheme.TOTAL).run();
        final Map<String, Double> m = fine.analysis().metrics();
        final double errCoarse = coarse.analysis().metrics().get("l1_density");
        final double errFine = m.get("l1_density");
        System.out.printf("sod: %d zones, t = %.3f in %d cycles: L1(density) %.3e (%.3e at %d zones)%n", zones,
            fine.snapshot().time(), fine.snapshot().cycles(), errFine, errCoarse, zones / 2);
        check(errFine < 0.02, "L1 error " + errFine + " at " + zones + " zones");
        check(errFine < 0.8 * errCoarse, "the error falls with the grid: " + errCoarse + " -> " + errFine);
        check(m.get("nonphysical_zones") == 0, m.get("nonphysical_zones") + " zones with a negative pressure");
        // Mass and (with the total-energy scheme) energy are conserved to round-off on a closed tube; the metrics are
        // absent when the tube's ends let them through.
        for (final String k : new String[] {"mass_error", "energy_error"}) {
            final double e = m.getOrDefault(k, 0.0);
            check(Math.abs(e) < 1e-12, k + " = " + e);
        }
        System.out.println("HydroSod: ok");
    }

    private static void check(final boolean ok, final String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
