package org.jhpvm.hydro;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;

/** Runs of the solver on Global Arrays with a setting changed before the first cycle, for bit-for-bit comparisons. */
final class SolverRuns {
    private SolverRuns() {
    }

    /** A Cartesian problem with the defaults of {@link Problem}, as the command line makes it. */
    static HydroRun.Spec spec(final String name, final int dims, final int zones, final double tEnd) {
        return Problem.of(name, new Problem.Params(1, dims, zones, tEnd, null, Geometry.CARTESIAN, 1),
            new ExactRiemann.State(1, 0, 1), new ExactRiemann.State(0.125, 0, 0.1), 0.5).spec();
    }

    /**
     * The fields PE 0 reads back after {@code cycles} cycles of {@code spec} on {@code pes} PEs, {@code setup}
     * applied to every PE's solver first.
     */
    static double[] run(final int pes, final HydroRun.Spec spec, final int cycles, final Consumer<ZeusSolver> setup) {
        final AtomicReference<double[]> fields = new AtomicReference<>();
        ShmemJob.builder().pes(pes).build().run(sh -> {
            final ZeusSolver zeus = new ZeusSolver(new GlobalArrays(sh), spec.cfg());
            setup.accept(zeus);
            zeus.inflow(spec.inflow());
            zeus.initialise(spec.initial());
            for (int c = 0; c < cycles; c++) {
                zeus.step(Double.MAX_VALUE);
            }
            final double[] f = zeus.gather();
            if (zeus.rank() == 0) {
                if (zeus.cycles() != cycles) {
                    throw new AssertionError(zeus.cycles() + " cycles, not " + cycles);
                }
                fields.set(f);
            }
        });
        if (fields.get() == null) {
            throw new AssertionError("PE 0 read nothing back");
        }
        return fields.get();
    }
}
