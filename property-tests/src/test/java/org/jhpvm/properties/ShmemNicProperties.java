package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import org.jhpvm.properties.NicPlan.Action;
import org.jhpvm.properties.NicPlan.Logged;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SignalOp;
import org.jhpvm.shmem.SymmetricDoubles;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * SHMEM's remote operations on the NIC, checked against a sequential model of every PE's memory: random programs
 * ({@link NicProgram}) of put, putNbi, p, iput, ibput, get, getNbi, g, iget, ibget, ibgetNbi, atomic fetch, set,
 * swap, compare-swap, fetch-add and add, put with signal and accumulate (long and double), of 0 .. 4 MiB each, on
 * 2..4 PEs, on both of FM's NIC paths ({@code fm.nicOffload}), under a random fault plan (drop, corruption,
 * duplication, reordering), with some PEs computing through a phase without any SHMEM call while the others read
 * and write their memory (the NIC, or with {@code fm.nicOffload=false} the PE's progress agent, must serve them).
 * <p>
 * Checked: every get's buffer and every fetched value as the model says (and nothing written beside a get's
 * range); a PE that sees a put-with-signal's signal finds its data, and the signals count exactly the puts with
 * signal after each barrier; a computing PE is served (its "done" notes, atomic adds from the others, arrive within
 * {@value #BUSY_LIMIT_S} s); the fetch-adds on each counter fetched a chain (each value the one before plus its
 * increment: none lost, none applied twice); at the end every PE's memory equals the model. The program and fault
 * plan are generated values: jqwik prints the seed and the shrunk program, and {@code @Property(seed = "...")}
 * replays it.
 */
class ShmemNicProperties {
    static final int BUSY_LIMIT_S = 20;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int MAX_FAILURES = 20;
    /** Where a computing PE leaves its result, so that the work is not optimised away. */
    private static volatile long sink;
    private static final AtomicInteger TRIES = new AtomicInteger();
    private static final AtomicInteger[] OFFLOAD = {new AtomicInteger(), new AtomicInteger()};
    private static final AtomicInteger FAULTY = new AtomicInteger();
    private static final AtomicInteger BUSY_SERVED = new AtomicInteger();
    private static final AtomicInteger BOUNDARY = new AtomicInteger();
    private static final AtomicInteger LARGE = new AtomicInteger();
    private static final AtomicInteger BLOCK_RDMA = new AtomicInteger();

    @Provide
    Arbitrary<NicProgram> programs() {
        return NicProgram.arbitrary();
    }

    @Property(tries = 60)
    void remoteOperationsAgreeWithASequentialModel(@ForAll("programs") final NicProgram program) {
        check(program);
    }

    /**
     * The smallest program seen failing before FM's message path received each sender's NIC requests into its own
     * buffer: two PEs' strided puts into a third, in frame-sized NIC requests that take two FM frames each, without
     * NIC offload. The target's extract served one sender's request while the other's waited for its second frame,
     * and both were received into one buffer: data landed in the wrong place (7 of 10 runs failed, so it runs 5
     * times).
     */
    @Example
    void stridedPutsOfTwoWritersIntoOnePeWithoutOffload() {
        final List<NicProgram.Op> none = List.of();
        final List<NicProgram.Op> iput = List.of(new NicProgram.Op(NicProgram.Step.IPUT, 0, 40_000, 0, 1, 1));
        final NicProgram program = new NicProgram(3, false, new NicProgram.Faults(1, 0, 0, 0, 0), List.of(
            new NicProgram.Phase(List.of(false, false, false, false), List.of(none, iput, iput, none))));
        for (int i = 0; i < 5; i++) {
            check(program);
        }
    }

    /** The same, longer ({@code mvn -B verify -Psoak}). */
    @Property(tries = 3000)
    @Tag("soak")
    void remoteOperationsAgreeWithASequentialModelSoak(@ForAll("programs") final NicProgram program) {
        check(program);
    }

    static void check(final NicProgram program) {
        final NicPlan plan = new NicPlan(program);
        final NicProgram.Faults f = program.faults();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<long[]> fetched = new ConcurrentLinkedQueue<>();
        final long[][] counters = new long[plan.pes][];
        ShmemJob.builder().pes(plan.pes).timeout(Duration.ofSeconds(60))
            .option("fm.nicOffload", Boolean.toString(program.offload()))
            .option("fabric.faults.seed", Long.toString(f.seed()))
            .option("fabric.faults.drop", Double.toString(f.drop()))
            .option("fabric.faults.corrupt", Double.toString(f.corrupt()))
            .option("fabric.faults.duplicate", Double.toString(f.duplicate()))
            .option("fabric.faults.reorder", Double.toString(f.reorder())).build()
            .run(sh -> counters[sh.myPe()] = new Runner(sh, plan, failures, fetched).run());
        checkChains(plan, fetched, counters, failures);
        TRIES.incrementAndGet();
        OFFLOAD[program.offload() ? 1 : 0].incrementAndGet();
        count(FAULTY, f.any());
        count(BUSY_SERVED, plan.busyTargets > 0);
        count(BOUNDARY, plan.boundaryOps > 0);
        count(LARGE, plan.largeOps > 0);
        count(BLOCK_RDMA, plan.blockRdmaOps > 0);
        assertTrue(failures.isEmpty(), () -> plan + "\n" + String.join("\n", failures) + "\nReplay: jqwik's report "
            + "gives the seed; @Property(seed = \"<seed>\") on this property runs the same programs and fault plans.");
    }

    private static void count(final AtomicInteger counter, final boolean happened) {
        if (happened) {
            counter.incrementAndGet();
        }
    }

    /** Per target, the values fetch-add fetched, sorted, must chain from 0 to the counter's final value. */
    private static void checkChains(final NicPlan plan, final ConcurrentLinkedQueue<long[]> fetched,
        final long[][] counters, final ConcurrentLinkedQueue<String> failures) {
        for (int t = 0; t < plan.pes; t++) {
            final int target = t;
            final List<long[]> mine = new ArrayList<>(fetched.stream().filter(x -> x[0] == target).toList());
            mine.sort(Comparator.comparingLong(x -> x[1]));
            long want = 0;
            for (final long[] x : mine) {
                if (x[1] != want) {
                    failures.add("fetch-add on PE " + t + " fetched " + x[1] + " where the chain of the others' adds "
                        + "says " + want + " (an add lost or applied twice)");
                    break;
                }
                want += x[2];
            }
            if (counters[t] != null && counters[t][NicPlan.CHAIN] != plan.chains[t]) {
                failures.add("fetch-add counter on PE " + t + " is " + counters[t][NicPlan.CHAIN] + ", the adds sum to "
                    + plan.chains[t]);
            }
        }
    }

    /**
     * Over all tries the program covered what it is for: both NIC paths, faults, computing PEs served, sizes at
     * the frame boundary, multi-MiB transfers, RDMA per block. (Checked only for a full run, not for a replay.)
     */
    @AfterContainer
    static void theProgramsCoveredEveryRoute() {
        System.out.println("ShmemNicProperties: " + TRIES.get() + " tries; nicOffload true " + OFFLOAD[1].get()
            + ", false " + OFFLOAD[0].get() + "; with faults " + FAULTY.get() + "; computing PE targeted "
            + BUSY_SERVED.get() + "; frame-boundary sizes " + BOUNDARY.get() + "; >= 1 MiB " + LARGE.get()
            + "; RDMA per block " + BLOCK_RDMA.get());
        if (TRIES.get() >= 60) {
            for (final AtomicInteger c : new AtomicInteger[] {OFFLOAD[0], OFFLOAD[1], FAULTY, BUSY_SERVED, BOUNDARY,
                LARGE, BLOCK_RDMA}) {
                assertTrue(c.get() > 0, "a route was never taken: see the counts above");
            }
        }
    }

    /** One PE running its part of a plan. */
    private static final class Runner {
        private final Shmem sh;
        private final NicPlan plan;
        private final int me;
        private final ConcurrentLinkedQueue<String> failures;
        private final ConcurrentLinkedQueue<long[]> fetched;
        /** Puts with signal whose data this PE has checked, per writer. */
        private final int[] seen;
        /** Non-blocking gets in flight: the action and its buffer. */
        private final List<Object[]> inFlight = new ArrayList<>();
        private SymmetricLongs mem;
        private SymmetricDoubles dacc;
        private SymmetricLongs log;
        private SymmetricLongs sig;
        private SymmetricLongs ctr;

        Runner(final Shmem sh, final NicPlan plan, final ConcurrentLinkedQueue<String> failures,
            final ConcurrentLinkedQueue<long[]> fetched) {
            this.sh = sh;
            this.plan = plan;
            this.me = sh.myPe();
            this.failures = failures;
            this.fetched = fetched;
            this.seen = new int[plan.pes];
        }

        /** Runs the plan; returns this PE's counters at the end. */
        long[] run() {
            mem = sh.mallocLongs(plan.memLength);
            dacc = sh.mallocDoubles(plan.accLength);
            log = sh.mallocLongs(plan.pes * plan.logLength);
            sig = sh.mallocLongs(plan.pes);
            ctr = sh.mallocLongs(NicPlan.COUNTERS);
            for (int p = 0; p < plan.busy.length; p++) {
                if (plan.busy[p][me]) {
                    compute(p);
                } else {
                    for (final Action a : plan.actions.get(p).get(me)) {
                        execute(a);
                        observeSignals(p, a.label());
                    }
                    quiet();
                    for (int b = 0; b < plan.pes; b++) {
                        if (plan.busy[p][b]) {
                            ctr.atomicAdd(b, NicPlan.DONE, 1);
                        }
                    }
                }
                sh.barrierAll();
                // Past the barrier the others may already be in the next phase: its signals may come too.
                final int next = Math.min(p + 1, plan.busy.length - 1);
                observeSignals(next, "after the barrier of phase " + p);
                checkSignals(p, "after phase " + p, false);
            }
            checkSignals(plan.busy.length - 1, "at the end", true);
            compare("memory", mem.local(), plan.mem[me]);
            compare("log of puts with signal", log.local(), plan.log[me]);
            final int d = Arrays.mismatch(dacc.local(), plan.dacc[me]);
            check(d < 0, () -> "PE " + me + " double accumulate area element " + d + " is " + dacc.local()[d]
                + ", model " + plan.dacc[me][d]);
            check(ctr.local()[NicPlan.SUM] == plan.sums[me], () -> "PE " + me + " sum of atomic adds is "
                + ctr.local()[NicPlan.SUM] + ", model " + plan.sums[me]);
            sh.barrierAll();
            return ctr.local().clone();
        }

        /** The whole phase without a SHMEM call: local work, watching the signals, until every "done" note came. */
        private void compute(final int p) {
            final long want = plan.doneAfter[p][me];
            final long start = System.nanoTime();
            long x = me;
            while ((long) LONGS.getVolatile(ctr.local(), NicPlan.DONE) < want) {
                for (int i = 0; i < 10_000; i++) {
                    x = x * 6_364_136_223_846_793_005L + i;
                }
                observeSignals(p, "while PE " + me + " computed in phase " + p);
                if (System.nanoTime() - start > BUSY_LIMIT_S * 1_000_000_000L) {
                    fail("PE " + me + " computed " + BUSY_LIMIT_S + " s in phase " + p + " and got "
                        + ctr.local()[NicPlan.DONE] + " of " + want + " done notes: nobody served it");
                    break;
                }
            }
            sink = x;
        }

        private void execute(final Action a) {
            final int t = a.target();
            switch (a.step()) {
                case PUT -> mem.put(t, a.index(), a.src(), 0, a.count());
                case PUT_NBI -> mem.putNbi(t, a.index(), a.src(), 0, a.count());
                case P -> mem.p(t, a.index(), a.a());
                case IPUT -> mem.iput(t, a.index(), a.remoteStride(), a.src(), 0, a.localStride(), a.count());
                case IBPUT -> mem.ibput(t, a.index(), a.remoteStride(), a.src(), 0, a.localStride(), a.block(),
                    a.count());
                case GET -> {
                    final long[] got = buffer(a);
                    mem.get(t, a.index(), got, 0, a.count());
                    checkGet(a, got);
                }
                case GET_NBI -> {
                    final long[] got = buffer(a);
                    mem.getNbi(t, a.index(), got, 0, a.count());
                    inFlight.add(new Object[] {a, got});
                }
                case G -> checkGet(a, new long[] {mem.g(t, a.index())});
                case IGET -> {
                    final long[] got = buffer(a);
                    mem.iget(t, a.index(), a.remoteStride(), got, 0, a.localStride(), a.count());
                    checkGet(a, got);
                }
                case IBGET -> {
                    final long[] got = buffer(a);
                    mem.ibget(t, a.index(), a.remoteStride(), got, 0, a.localStride(), a.block(), a.count());
                    checkGet(a, got);
                }
                case IBGET_NBI -> {
                    final long[] got = buffer(a);
                    mem.ibgetNbi(t, a.index(), a.remoteStride(), got, 0, a.localStride(), a.block(), a.count());
                    inFlight.add(new Object[] {a, got});
                }
                case FETCH -> checkGet(a, new long[] {mem.atomicFetch(t, a.index())});
                case SET -> mem.atomicSet(t, a.index(), a.a());
                case SWAP -> checkGet(a, new long[] {mem.atomicSwap(t, a.index(), a.a())});
                case CSWAP -> checkGet(a, new long[] {mem.atomicCompareSwap(t, a.index(), a.b(), a.a())});
                case FETCH_ADD -> fetched.add(new long[] {t, ctr.atomicFetchAdd(t, a.index(), a.a()), a.a()});
                case ADD -> ctr.atomicAdd(t, a.index(), a.a());
                case PUT_SIGNAL -> log.putSignal(t, a.index(), a.src(), 0, a.count(), sig, me, a.a(),
                    a.b() == 1 ? SignalOp.ADD : SignalOp.SET);
                case ACC -> mem.acc(t, a.index(), a.remoteStride(), a.src(), 0, 1, a.count(), a.a());
                case ACC_DOUBLE -> dacc.acc(t, a.index(), a.remoteStride(), a.dsrc(), 0, 1, a.count(),
                    Double.longBitsToDouble(a.a()));
                case FENCE -> sh.fence();
                case QUIET -> quiet();
            }
        }

        private static long[] buffer(final Action a) {
            final long[] b = new long[a.expect().length];
            Arrays.fill(b, NicPlan.SENTINEL);
            return b;
        }

        /** A quiet, then the non-blocking gets it completed are checked. */
        private void quiet() {
            sh.quiet();
            for (final Object[] x : inFlight) {
                checkGet((Action) x[0], (long[]) x[1]);
            }
            inFlight.clear();
        }

        private void checkGet(final Action a, final long[] got) {
            final int i = Arrays.mismatch(got, a.expect());
            check(i < 0, () -> a.label() + ": element " + i + " of the buffer is " + Long.toHexString(got[i])
                + ", model " + Long.toHexString(a.expect()[i]) + (a.expect()[i] == NicPlan.SENTINEL
                ? " (written outside the range)" : ""));
        }

        /** After a barrier, every put with signal of the phase has come; at the end, exactly those. */
        private void checkSignals(final int p, final String when, final boolean exactly) {
            for (int w = 0; w < plan.pes; w++) {
                final long s = (long) LONGS.getVolatile(sig.local(), w);
                final long want = plan.signalsAfter[p][me][w];
                if (s < want || exactly && s != want) {
                    fail(when + " PE " + me + "'s signal from PE " + w + " is " + s + ", but " + want
                        + " puts with signal came");
                }
            }
        }

        /**
         * Local volatile reads only (no SHMEM call): every signal seen must come after its data, and no signal may
         * count more puts with signal than phase {@code p}'s end has.
         */
        private void observeSignals(final int p, final String when) {
            for (int w = 0; w < plan.pes; w++) {
                final long s = (long) LONGS.getVolatile(sig.local(), w);
                final List<Logged> from = plan.logs.get(me).get(w);
                final long limit = plan.signalsAfter[p][me][w];
                if (s > limit || s < seen[w]) {
                    final int writer = w;
                    fail("PE " + me + " saw signal " + s + " from PE " + writer + " " + when + ", but "
                        + (s > limit ? "only " + limit + " puts with signal had come by the end of phase " + p
                        : seen[writer] + " before: a signal went back"));
                    seen[w] = (int) Math.min(Math.max(s, 0), limit);
                    continue;
                }
                for (int k = seen[w]; k < s; k++) {
                    final Logged x = from.get(k);
                    final int i = Arrays.mismatch(log.local(), x.index(), x.index() + x.data().length, x.data(), 0,
                        x.data().length);
                    if (i >= 0) {
                        fail("PE " + me + " saw signal " + s + " " + when + " before the data of " + x.label()
                            + ": element " + i + " is " + Long.toHexString(log.local()[x.index() + i]) + ", sent "
                            + Long.toHexString(x.data()[i]));
                    }
                }
                seen[w] = (int) s;
            }
        }

        /** Compares this PE's memory with the model; reports the first difference, naming the area. */
        private void compare(final String what, final long[] got, final long[] want) {
            final int i = Arrays.mismatch(got, want);
            if (i < 0) {
                return;
            }
            final String where;
            if (got == mem.local()) {
                final int area = i / plan.region;
                where = area >= plan.pes ? "accumulate area element " + (i - plan.pes * plan.region)
                    : "region of PE " + area + " element " + (i - area * plan.region);
            } else {
                where = "log of PE " + i / plan.logLength + " element " + i % plan.logLength;
            }
            fail("PE " + me + " " + what + " at the end differs from the model at " + i + " (" + where + "): "
                + Long.toHexString(got[i]) + ", model " + Long.toHexString(want[i]));
        }

        private void check(final boolean ok, final java.util.function.Supplier<String> message) {
            if (!ok) {
                fail(message.get());
            }
        }

        private void fail(final String message) {
            if (failures.size() < MAX_FAILURES) {
                failures.add(message);
            }
        }
    }
}
