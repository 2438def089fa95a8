package org.jhpvm.properties;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

/**
 * A random SHMEM program for {@link ShmemNicProperties}: 2..4 PEs, one of FM's two NIC paths, a fault plan, and 1..3
 * phases separated by barriers. In each phase some PEs compute (no SHMEM call at all) while the others run their
 * steps. A step is raw picks (target, size, offset, shape, value) that {@link NicPlan} turns into a concrete,
 * well-defined operation whatever their values, so every shrunk program is still a valid one.
 *
 * @param pes     number of PEs
 * @param offload {@code fm.nicOffload}: the target NIC runs the handlers, or FM messages to the target's extract
 * @param faults  the fabric's fault plan
 * @param phases  the phases, in order
 */
record NicProgram(int pes, boolean offload, Faults faults, List<Phase> phases) {
    static final int MAX_PES = 4;

    /** What a step does. FENCE and QUIET are also inserted by the plan where the model needs them. */
    enum Step {
        PUT, PUT_NBI, P, IPUT, IBPUT, GET, GET_NBI, G, IGET, IBGET, IBGET_NBI, FETCH, SET, SWAP, CSWAP, FETCH_ADD, ADD,
        PUT_SIGNAL, ACC, ACC_DOUBLE, FENCE, QUIET
    }

    /**
     * One step as generated.
     *
     * @param step   what it does
     * @param target target PE, modulo the PE count
     * @param size   elements (longs: 8 bytes each), 0 .. 2^19 (4 MiB), before the plan's budget caps it
     * @param offset where in the area, modulo the room there
     * @param shape  strides, blocks, signal operator, whether a compare-swap matches: bit fields the plan reads
     * @param value  seed of the data and atomic operands, fetch-add increment, accumulate scale, which area a get
     *               reads
     */
    record Op(Step step, int target, int size, int offset, int shape, int value) {
        @Override
        public String toString() {
            return step + "->" + target + " n=" + size + " off=" + offset + " shape=" + shape + " v=" + value;
        }
    }

    /**
     * One phase.
     *
     * @param busy per PE (the first {@code pes}), whether it computes through the phase instead of running steps
     * @param ops  per PE, its steps
     */
    record Phase(List<Boolean> busy, List<List<Op>> ops) {
        @Override
        public String toString() {
            return "busy=" + busy + " ops=" + ops;
        }
    }

    /**
     * The fabric's fault plan ({@code fabric.faults.*}); 0 turns a fault off.
     *
     * @param seed      seed of every fault decision
     * @param drop      drop probability per frame (and per RDMA segment)
     * @param corrupt   corruption probability
     * @param duplicate duplication probability
     * @param reorder   reorder probability
     */
    record Faults(long seed, double drop, double corrupt, double duplicate, double reorder) {
        boolean any() {
            return drop > 0 || corrupt > 0 || duplicate > 0 || reorder > 0;
        }
    }

    static Arbitrary<NicProgram> arbitrary() {
        final Arbitrary<Faults> faults = Combinators.combine(Arbitraries.longs(), maybe(0.03), maybe(0.01),
            maybe(0.01), maybe(0.01)).as(Faults::new);
        final Arbitrary<Phase> phase = Combinators.combine(
            Arbitraries.frequency(Tuple.of(13, false), Tuple.of(7, true)).list().ofSize(MAX_PES),
            op().list().ofMaxSize(10).list().ofSize(MAX_PES)).as(Phase::new);
        return Combinators.combine(Arbitraries.integers().between(2, MAX_PES), Arbitraries.of(true, false), faults,
            phase.list().ofMinSize(1).ofMaxSize(3)).as(NicProgram::new);
    }

    /** 0 (the fault off) or a probability up to {@code max}. */
    private static Arbitrary<Double> maybe(final double max) {
        return Arbitraries.oneOf(Arbitraries.just(0.0), Arbitraries.doubles().between(0.001, max).ofScale(3));
    }

    private static Arbitrary<Op> op() {
        final Arbitrary<Step> step = Arbitraries.frequency(
            Tuple.of(6, Step.PUT), Tuple.of(3, Step.PUT_NBI), Tuple.of(2, Step.P), Tuple.of(3, Step.IPUT),
            Tuple.of(6, Step.IBPUT), Tuple.of(4, Step.GET), Tuple.of(2, Step.GET_NBI), Tuple.of(1, Step.G),
            Tuple.of(2, Step.IGET), Tuple.of(3, Step.IBGET), Tuple.of(2, Step.IBGET_NBI), Tuple.of(1, Step.FETCH),
            Tuple.of(2, Step.SET), Tuple.of(2, Step.SWAP), Tuple.of(2, Step.CSWAP), Tuple.of(3, Step.FETCH_ADD),
            Tuple.of(2, Step.ADD), Tuple.of(5, Step.PUT_SIGNAL), Tuple.of(3, Step.ACC), Tuple.of(3, Step.ACC_DOUBLE),
            Tuple.of(1, Step.FENCE), Tuple.of(2, Step.QUIET));
        return Combinators.combine(step, Arbitraries.integers().between(0, MAX_PES - 1), size(), uniform(1 << 20),
            uniform(1023), uniform(1 << 16)).as(Op::new);
    }

    /** Picks spread over the whole range (jqwik's default bias favours small values). */
    private static Arbitrary<Integer> uniform(final int max) {
        return uniform(0, max);
    }

    private static Arbitrary<Integer> uniform(final int min, final int max) {
        return Arbitraries.integers().between(min, max).withDistribution(RandomDistribution.uniform());
    }

    /**
     * Elements (longs), biased: mostly small, many at the frame boundary (a frame carries 16384 bytes, 2048 longs,
     * less a request's header), some chunked or RDMA-sized, a few up to 4 MiB.
     */
    private static Arbitrary<Integer> size() {
        return Arbitraries.frequencyOf(
            Tuple.of(7, uniform(0, 16)),
            Tuple.of(5, uniform(17, 1000)),
            Tuple.of(5, uniform(2030, 2060)),
            Tuple.of(5, uniform(2061, 65_536)),
            Tuple.of(2, uniform(65_537, NicPlan.MAX_EXTENT)));
    }
}
