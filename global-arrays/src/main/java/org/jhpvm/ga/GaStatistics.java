package org.jhpvm.ga;

/**
 * What {@code GA_Print_stats} reports: this PE's one-sided Global Arrays calls since {@link GlobalArrays} was made,
 * with the bytes each family moved. Put, get and accumulate count the blocking, non-blocking, strided and periodic
 * forms; scatter, gather and scatter-accumulate count calls and elements. Collective operations (copies, algebra,
 * ghost updates) are not one-sided calls and are not counted.
 *
 * @param putCalls     put calls
 * @param putBytes     bytes they wrote
 * @param getCalls     get calls
 * @param getBytes     bytes they read
 * @param accCalls     accumulate calls
 * @param accBytes     bytes they added
 * @param scatterCalls scatter and scatter-accumulate calls
 * @param scatterBytes bytes they wrote
 * @param gatherCalls  gather calls
 * @param gatherBytes  bytes they read
 * @param readIncCalls read-and-increment calls
 */
public record GaStatistics(long putCalls, long putBytes, long getCalls, long getBytes, long accCalls,
                           long accBytes, long scatterCalls, long scatterBytes, long gatherCalls, long gatherBytes,
                           long readIncCalls) {
    /** The counters, updated by the section and element paths (no allocation per call). */
    static final class Counters {
        static final int PUT = 0;
        static final int GET = 1;
        static final int ACC = 2;
        static final int SCATTER = 3;
        static final int GATHER = 4;
        static final int READ_INC = 5;
        final long[] calls = new long[6];
        final long[] bytes = new long[6];

        /** A section or element call of family {@code kind} ({@link Mover}'s op for sections) moving bytes. */
        void record(final int kind, final long moved) {
            calls[kind]++;
            bytes[kind] += moved;
        }

        /** The family of a section call by {@link Mover}'s op. */
        static int ofSection(final int moverOp) {
            return switch (moverOp) {
                case Mover.PUT -> PUT;
                case Mover.ACC -> ACC;
                default -> GET;
            };
        }

        GaStatistics snapshot() {
            return new GaStatistics(calls[PUT], bytes[PUT], calls[GET], bytes[GET], calls[ACC], bytes[ACC],
                calls[SCATTER], bytes[SCATTER], calls[GATHER], bytes[GATHER], calls[READ_INC]);
        }
    }
}
