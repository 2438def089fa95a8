package org.jhpvm.properties;

import java.time.Duration;

import org.jhpvm.mpi.MpiJob;

/** The MPI jobs the MPI properties run: a number of ranks over a fabric with a fault plan. */
final class MpiJobs {
    private MpiJobs() {
    }

    /**
     * A job of {@code ranks} ranks, with a minute to finish, whose fabric drops, duplicates and reorders frames with
     * probability {@code drop} each (none when 0), from the plan's {@code seed}.
     */
    static MpiJob mpiJob(final int ranks, final double drop, final long seed) {
        final MpiJob.Builder b = MpiJob.builder().ranks(ranks).timeout(Duration.ofSeconds(60));
        if (drop > 0) {
            final String p = Double.toString(drop);
            b.option("fabric.faults.seed", Long.toString(seed)).option("fabric.faults.drop", p)
                .option("fabric.faults.duplicate", p).option("fabric.faults.reorder", p);
        }
        return b.build();
    }
}
