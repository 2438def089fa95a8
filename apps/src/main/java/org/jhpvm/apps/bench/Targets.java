package org.jhpvm.apps.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Every benchmark target the module READMEs and the issues set, in one place: which bench measures it, the JSON key
 * under its {@code metrics}, the bound and where it comes from. {@code bench check} runs the benches and judges
 * each figure against its target.
 */
public final class Targets {
    /** How a figure meets its bound. */
    public enum Bound {
        /** value &lt;= bound */
        AT_MOST("<="),
        /** value &gt;= bound */
        AT_LEAST(">="),
        /** value &lt; bound */
        BELOW("<");

        private final String symbol;

        Bound(final String symbol) {
            this.symbol = symbol;
        }

        /**
         * The comparison as printed.
         *
         * @return {@code <=}, {@code >=} or {@code <}
         */
        public String symbol() {
            return symbol;
        }

        boolean met(final double value, final double bound) {
            return switch (this) {
                case AT_MOST -> value <= bound;
                case AT_LEAST -> value >= bound;
                case BELOW -> value < bound;
            };
        }
    }

    /**
     * One target.
     *
     * @param bench  the bench that measures it ({@code bench BENCH})
     * @param key    its JSON key under {@code metrics}
     * @param bound  how the value must compare
     * @param value  the bound's value
     * @param source where the target was set
     */
    public record Target(String bench, String key, Bound bound, double value, String source) {
    }

    /**
     * A target judged.
     *
     * @param target the target
     * @param value  the figure measured, NaN if the bench did not report it
     * @param met    whether the figure meets the target (false when absent)
     */
    public record Verdict(Target target, double value, boolean met) {
        /**
         * The verdict as printed: met, MISSED or absent.
         *
         * @return {@code met}, {@code MISSED} or {@code absent}
         */
        public String word() {
            return Double.isNaN(value) ? "absent" : met ? "met" : "MISSED";
        }
    }

    /** The benches, in the order {@code bench check} runs them. */
    public static final List<String> BENCHES = List.of("fabric", "fm", "shmem", "ga", "mpi", "hydro", "dcs");

    /** Every target, by bench. */
    public static final List<Target> ALL = List.of(
        t("fabric", "latency_ratio", Bound.AT_MOST, 1.5, "fabric-emulator README"),
        t("fabric", "bw_ratio", Bound.AT_LEAST, 0.5, "fabric-emulator README"),
        t("fm", "latency_ratio", Bound.AT_MOST, 2.0, "fm-transport README"),
        t("fm", "n_half_bytes", Bound.AT_MOST, 256, "fm-transport README"),
        t("fm", "bw_ratio_64KiB", Bound.AT_LEAST, 0.6, "issue 33"),
        t("fm", "bw_1MiB_over_64KiB", Bound.AT_LEAST, 0.9, "fm-transport README"),
        t("fm", "dcs_latency_ratio_8B", Bound.AT_MOST, 1.1, "fm-transport README (FM-DCS)"),
        t("shmem", "put_latency_ratio", Bound.AT_MOST, 1.2, "shmem README"),
        t("shmem", "min_put_efficiency", Bound.AT_LEAST, 0.9, "issue 33"),
        t("shmem", "put_latency_spsc_ratio", Bound.AT_MOST, 2.0, "issue 33"),
        t("shmem", "get_latency_spsc_ratio", Bound.AT_MOST, 1.5, "issue 33"),
        t("shmem", "fetch_add_latency_spsc_ratio", Bound.AT_MOST, 1.5, "issue 33"),
        t("shmem", "put_bw_arraycopy_ratio_64KiB", Bound.AT_LEAST, 0.7, "issue 33"),
        t("shmem", "put_bw_arraycopy_ratio_1MiB", Bound.AT_LEAST, 0.7, "shmem README"),
        t("shmem", "get_bw_arraycopy_ratio_1MiB", Bound.AT_LEAST, 0.7, "shmem README"),
        t("shmem", "put_rate_spsc_ratio_8B", Bound.AT_LEAST, 0.25, "issue 33"),
        t("shmem", "get_latency_busy_target_ratio", Bound.AT_MOST, 1.2, "shmem README"),
        t("shmem", "dcs_latency_ratio_8B", Bound.AT_MOST, 1.1, "shmem README (FM-DCS)"),
        t("shmem", "user_pingpong_put_latency_ratio", Bound.AT_MOST, 2.0, "issue 33"),
        t("shmem", "user_pingpong_put_latency_ratio_p90", Bound.AT_MOST, 2.0, "issue 33"),
        t("shmem", "user_barrier_ns_2pe", Bound.AT_MOST, 10_000, "issue 33"),
        t("shmem", "user_broadcast_ns_2pe", Bound.AT_MOST, 10_000, "issue 33"),
        t("shmem", "user_reduce_ns_2pe", Bound.AT_MOST, 10_000, "issue 33"),
        t("ga", "min_put_efficiency_1KiB", Bound.AT_LEAST, 0.9, "issue 33"),
        t("ga", "min_get_efficiency_1KiB", Bound.AT_LEAST, 0.9, "issue 33"),
        t("ga", "ghost_update_ratio", Bound.AT_MOST, 1.2, "global-arrays README"),
        t("mpi", "mpi_min_efficiency", Bound.AT_LEAST, 0.9, "issue 33"),
        t("mpi", "mpi_latency_overhead_ns_8B", Bound.AT_MOST, 60, "issue 33"),
        t("hydro", "total_energy_cost_ratio_max", Bound.AT_MOST, 1.3, "bench hydro's targets"),
        t("hydro", "sod_us_per_cycle_1pe", Bound.AT_MOST, 45, "bench hydro's targets"),
        t("hydro", "curvilinear_cost_ratio", Bound.AT_MOST, 1.3, "bench hydro's targets"),
        t("hydro", "polar_cost_ratio", Bound.AT_MOST, 1.3, "bench hydro's targets"),
        t("hydro", "polar_3d_cost_ratio", Bound.AT_MOST, 1.3, "bench hydro's targets"),
        t("dcs", "dcs_slowdown_max", Bound.AT_MOST, 2.3, "apps README (FM-DCS)"),
        t("dcs", "idle_cpu_fraction_waiting", Bound.AT_MOST, 0.05, "apps README (FM-DCS)"),
        t("dcs", "idle_job_core_fraction", Bound.BELOW, 0.02, "issue 33"));

    private Targets() {
    }

    private static Target t(final String bench, final String key, final Bound bound, final double value,
        final String source) {
        return new Target(bench, key, bound, value, source);
    }

    /**
     * Judges every target of the benches given.
     *
     * @param metrics each bench's {@code metrics} object, by bench name; a bench not in the map is not judged
     * @return a verdict per target of those benches, in the catalogue's order
     */
    public static List<Verdict> judge(final Map<String, JsonNode> metrics) {
        final List<Verdict> out = new ArrayList<>();
        for (final Target t : ALL) {
            final JsonNode m = metrics.get(t.bench());
            if (m == null) {
                continue;
            }
            final JsonNode v = m.get(t.key());
            final double value = v != null && v.isNumber() ? v.asDouble() : Double.NaN;
            out.add(new Verdict(t, value, !Double.isNaN(value) && t.bound().met(value, t.value())));
        }
        return out;
    }
}
