package org.jhpvm.fabric.aeron;

import java.util.Optional;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.ProcessFabric;

/**
 * Finds the launched job in the environment ({@link JobEnvironment}) and joins it once per process; the fabric stays
 * open until the JVM exits (a shutdown hook says goodbye to the other processes and closes it). Registered with
 * {@link java.util.ServiceLoader} for {@link ProcessFabric#launched()}.
 */
public final class AeronFabricProvider implements ProcessFabric.Provider {
    private static final Object LOCK = new Object();
    private static AeronFabric fabric;
    private static RuntimeException failure;

    /** For {@link java.util.ServiceLoader}. */
    public AeronFabricProvider() {
    }

    @Override
    public Optional<ProcessFabric> launched() {
        synchronized (LOCK) {
            if (fabric != null) {
                return Optional.of(fabric);
            }
            if (failure != null) {
                throw failure;
            }
            final Optional<JobEnvironment> env = JobEnvironment.from(System.getenv());
            if (env.isEmpty()) {
                return Optional.empty();
            }
            if (System.getenv("JHPVM_SECRET") == null && System.getenv("JHPVM_RANK") == null
                && env.get().rank() == 0) {
                System.err.println("jhpvm: JHPVM_SECRET is not set; this job's secret is derived from the launcher's "
                    + "job id (it keeps your jobs apart, but another user of these nodes could join it: on shared "
                    + "nodes export JHPVM_SECRET)");
            }
            try {
                final AeronFabric f = AeronFabric.join(env.get(), FabricConfig.builder(env.get().nicCount()).build());
                Runtime.getRuntime().addShutdownHook(new Thread(f::close, "jhpvm-aeron-close"));
                fabric = f;
                return Optional.of(f);
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }
    }
}
