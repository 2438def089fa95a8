package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Aggregation of small puts and non-fetching atomics ({@link PutBatch}): what a batch carries arrives whole and in
 * order, every call of another kind sends it first, the progress agent sends one the PE left open while it computes,
 * and a batch with one bad entry changes nothing.
 */
@Timeout(120)
class AggregationTest {
    private static ShmemJob job(final int pes, final String... options) {
        final ShmemJob.Builder b = ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90));
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b.build();
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void shouldDeliverManySmallPutsInFewMessagesInOrder(final boolean offload) {
        final int n = 5_000;
        final AtomicLong batches = new AtomicLong();
        final AtomicLong entries = new AtomicLong();
        job(2, "fm.nicOffload", "" + offload).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(n);
            final SymmetricInts b = sh.mallocInts(n);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                final long before = sh.engine.batch.batchesSent();
                final long entriesBefore = sh.engine.batch.entriesSent() + sh.engine.batch.singlesSent();
                for (int i = 0; i < n; i++) {
                    a.p(1, i, 1_000_000L + i);
                    a.p(1, i, 3L * i); // the later put to the same element wins: entries keep their order
                    b.put(1, i, new int[] {-i}, 0, 1);
                }
                sh.quiet();
                batches.set(sh.engine.batch.batchesSent() - before);
                // A batch of one the agent sent while this PE was descheduled (a busy machine) still went through
                // the batch: it counts.
                entries.set(sh.engine.batch.entriesSent() + sh.engine.batch.singlesSent() - entriesBefore);
            }
            sh.barrierAll();
            if (sh.myPe() == 1) {
                for (int i = 0; i < n; i++) {
                    assertEquals(3L * i, a.local()[i], "element " + i);
                    assertEquals(-i, b.local()[i], "int element " + i);
                }
            }
        });
        assertEquals(3L * n - 1, entries.get(), "every put but the first (sent alone) went into a batch");
        assertTrue(batches.get() > 0 && batches.get() <= 3L * n / 50,
            "15,000 small puts left in " + batches.get() + " batches (a frame holds about 150)");
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void shouldDeliverBatchedPutsOfEveryKindAndLength(final boolean offload) {
        job(2, "fm.nicOffload", "" + offload).run(sh -> {
            final int n = 40;
            final SymmetricBytes b = sh.mallocBytes(n);
            final SymmetricInts i32 = sh.mallocInts(n);
            final SymmetricLongs i64 = sh.mallocLongs(n);
            final SymmetricFloats f32 = sh.mallocFloats(n);
            final SymmetricDoubles f64 = sh.mallocDoubles(n);
            sh.barrierAll();
            final long batchesBefore = sh.engine.batch.batchesSent();
            if (sh.myPe() == 0) {
                // Runs of 1, 2, 3, ... elements at rising offsets: single-element entries and longer ones, each kind
                // in a batch of its own (a put to another object of the same PE joins the batch).
                for (int at = 0, len = 1; at + len <= n; at += len, len++) {
                    final byte[] bs = new byte[len];
                    final int[] is = new int[len];
                    final long[] ls = new long[len];
                    final float[] fs = new float[len];
                    final double[] ds = new double[len];
                    for (int k = 0; k < len; k++) {
                        bs[k] = (byte) (at + k + 1);
                        is[k] = -(at + k) - 7;
                        ls[k] = (at + k) * 1_000_000_007L;
                        fs[k] = (at + k) + 0.25f;
                        ds[k] = (at + k) - 0.125;
                    }
                    b.put(1, at, bs, 0, len);
                    i32.put(1, at, is, 0, len);
                    i64.put(1, at, ls, 0, len);
                    f32.put(1, at, fs, 0, len);
                    f64.put(1, at, ds, 0, len);
                }
                sh.quiet();
                assertTrue(sh.engine.batch.batchesSent() > batchesBefore, "the puts went in batches");
            }
            sh.barrierAll();
            if (sh.myPe() == 1) {
                int end = 0;
                for (int at = 0, len = 1; at + len <= n; at += len, len++) {
                    end = at + len;
                }
                for (int k = 0; k < end; k++) {
                    assertEquals((byte) (k + 1), b.local()[k], "byte " + k);
                    assertEquals(-k - 7, i32.local()[k], "int " + k);
                    assertEquals(k * 1_000_000_007L, i64.local()[k], "long " + k);
                    assertEquals(k + 0.25f, f32.local()[k], 0.0f, "float " + k);
                    assertEquals(k - 0.125, f64.local()[k], 0.0, "double " + k);
                }
            }
        });
    }

    @Test
    void shouldKeepPutsAndAtomicsInProgramOrder() {
        job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(64);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                for (int i = 0; i < 64; i++) {
                    a.p(1, i, 5);
                    a.atomicAdd(1, i, i);     // after the put: 5 + i
                    a.atomicXor(1, i, 0xF0);  // then the xor
                    a.atomicSet(1, 63 - i, 0); // overwritten below where i < 32
                }
                for (int i = 0; i < 32; i++) {
                    a.atomicOr(1, i, 1L << 40);
                }
                sh.quiet();
            }
            sh.barrierAll();
            if (sh.myPe() == 1) {
                for (int i = 0; i < 64; i++) {
                    // element i: p(5), add(i), xor(0xF0) at step i; set(0) at step 63 - i
                    final long expect;
                    if (63 - i > i) {
                        expect = 0;  // the set came after the xor
                    } else {
                        expect = (5 + i) ^ 0xF0; // the set came before the put
                    }
                    assertEquals(i < 32 ? expect | 1L << 40 : expect, a.local()[i], "element " + i);
                }
            }
        });
    }

    @Test
    void shouldSendTheBatchBeforeEveryOtherKindOfCall() {
        job(3).run(sh -> {
            final int me = sh.myPe();
            final SymmetricLongs a = sh.mallocLongs(4);
            final SymmetricLongs flag = sh.mallocLongs(1);
            sh.barrierAll();
            if (me == 0) {
                // A put after a put to the same PE is batched (the first leaves alone). A get of the same element
                // after it sees it (the get sends the batch first).
                a.p(1, 0, 41);
                a.p(1, 0, 42);
                final long[] back = new long[1];
                a.get(1, 0, back, 0, 1);
                assertEquals(42, back[0]);
                // A fetching atomic likewise.
                a.p(1, 1, 6);
                a.p(1, 1, 7);
                assertEquals(7, a.atomicFetchAdd(1, 1, 1));
                // A put to another PE sends the batch to the first one.
                // (The agent may send part of it earlier if this PE is descheduled: count what went through it.)
                final long staged = sh.engine.batch.entriesSent() + sh.engine.batch.singlesSent();
                a.p(1, 2, 8);
                a.p(1, 2, 9);
                a.p(1, 3, 9);
                a.p(2, 2, 9);
                assertFalse(sh.engine.batch.pending(), "the batch to PE 1 left at the put to PE 2");
                assertEquals(staged + 2, sh.engine.batch.entriesSent() + sh.engine.batch.singlesSent(),
                    "the second and third puts went through the batch");
                // A wait sends it: PE 1 answers only once it has seen the flag's batched value.
                flag.p(1, 0, -5);
                flag.p(1, 0, 1);
                flag.waitUntil(0, Cmp.EQ, 2);
            } else if (me == 1) {
                flag.waitUntil(0, Cmp.EQ, 1);
                assertEquals(9, a.local()[2]);
                assertEquals(9, a.local()[3]);
                flag.p(0, 0, 2);
            }
            sh.barrierAll();
            if (me == 2) {
                assertEquals(9, a.local()[2]);
            }
        });
    }

    @Test
    void shouldDeliverABatchLeftOpenWhileThePeComputes() {
        // PE 0 puts and then spins without calling SHMEM until PE 1 (outside SHMEM) says it saw the put: only the
        // progress agent can send the batch.
        final AtomicBoolean seen = new AtomicBoolean();
        job(2).run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(1);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                flag.p(1, 0, 77);
                final long deadline = System.nanoTime() + 20_000_000_000L;
                while (!seen.get()) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("the open batch was not sent within 20 s");
                    }
                    Thread.onSpinWait();
                }
            } else {
                flag.waitUntil(0, Cmp.EQ, 77);
                seen.set(true);
            }
            sh.barrierAll();
        });
        assertTrue(seen.get());
    }

    @Test
    void shouldRefuseABatchWithOneBadEntryWhole() {
        final AtomicReference<long[]> target = new AtomicReference<>();
        final ShmemAbortException e = assertThrows(ShmemAbortException.class, () -> job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(8);
            Arrays.fill(a.local(), -1);
            if (sh.myPe() == 1) {
                target.set(a.local());
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                final Engine engine = sh.engine;
                engine.enterToBatch();
                try {
                    // A put that leaves alone, then a batch of a good entry and one past the end (the public calls
                    // check bounds first; this one cannot).
                    assertFalse(engine.batch.put(a, 1, 0, new long[] {4}, 0, 1), "the first put leaves alone");
                    assertTrue(engine.batch.put(a, 1, 1, new long[] {5}, 0, 1));
                    assertTrue(engine.batch.put(a, 1, 8, new long[] {6}, 0, 1));
                } finally {
                    engine.exit();
                }
                sh.quiet();
            } else {
                sh.barrierAll();
            }
        }));
        assertTrue(String.valueOf(e.getCause()).contains("refused"), String.valueOf(e.getCause()));
        assertEquals(-1, target.get()[1], "the good entry of the refused batch was not applied");
    }

    @Test
    void shouldAddUpConcurrentBatchedAtomics() {
        final int per = 20_000;
        job(4).run(sh -> {
            final SymmetricLongs counter = sh.mallocLongs(3);
            sh.barrierAll();
            if (sh.myPe() != 0) {
                for (int i = 0; i < per; i++) {
                    counter.atomicAdd(0, i & 1, 1);
                    counter.atomicXor(0, 2, 1L << sh.myPe());
                }
                counter.atomicXor(0, 2, 1L << sh.myPe()); // an odd number of flips: the PE's bit stays set
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                assertEquals(3L * per / 2, counter.local()[0]);
                assertEquals(3L * per / 2, counter.local()[1]);
                assertEquals(2 | 4 | 8, counter.local()[2]);
            }
        });
    }

    /**
     * On FM's message path each PE streams batched atomics and puts at the other while the other does the same: every
     * PE serves the other's batches between its own (from its own thread, {@code Engine.serveBetweenBatches}), and
     * every update arrives exactly once. Without offload nothing else may serve them while both PEs are in calls but
     * the progress agents.
     */
    @Test
    void shouldServeOthersBatchesBetweenItsOwnOnTheMessagePath() {
        final int per = 50_000;
        final long[] serves = new long[2];
        job(2, "fm.nicOffload", "false").run(sh -> {
            final SymmetricLongs counter = sh.mallocLongs(2);
            final SymmetricLongs cells = sh.mallocLongs(per);
            final int other = 1 - sh.myPe();
            final long[] one = new long[1];
            sh.barrierAll();
            for (int i = 0; i < per; i++) {
                counter.atomicAdd(other, i & 1, 1);
                one[0] = (long) sh.myPe() << 32 | i;
                cells.put(other, i, one, 0, 1);
            }
            sh.barrierAll();
            assertEquals(per / 2, counter.local()[0]);
            assertEquals(per / 2, counter.local()[1]);
            for (int i = 0; i < per; i++) {
                assertEquals((long) other << 32 | i, cells.local()[i], "cell " + i);
            }
            serves[sh.myPe()] = sh.engine.batchServes;
        });
        assertTrue(serves[0] > 0 && serves[1] > 0, "no PE served between its batches: " + Arrays.toString(serves));
    }

    @Test
    void shouldSendALoneEntryAsItsOwnPutOrAtomic() {
        job(2).run(sh -> {
            final SymmetricInts a = sh.mallocInts(8);
            final SymmetricDoubles d = sh.mallocDoubles(2);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                final long batches = sh.engine.batch.batchesSent();
                final long appended = sh.engine.batch.appendedOpaque();
                // Each alone between other calls: none enters the batch (a put followed by quiet or a wait, the
                // ping-pong of users' programs, costs what it did without aggregation).
                a.put(1, 2, new int[] {7, 8, 9}, 0, 3);
                sh.quiet();
                a.atomicAdd(1, 0, 5);
                sh.quiet();
                d.atomicSet(1, 1, 2.5);
                sh.quiet();
                assertEquals(appended, sh.engine.batch.appendedOpaque(), "a put or atomic alone is never staged");
                // Two in a row: the second is staged, and leaves as its own message at the quiet.
                a.atomicAdd(1, 6, 1);
                a.atomicAdd(1, 6, 2);
                sh.quiet();
                assertEquals(appended + 1, sh.engine.batch.appendedOpaque(), "the second of two in a row is staged");
                assertEquals(batches, sh.engine.batch.batchesSent(), "single entries leave as their own messages");
            }
            sh.barrierAll();
            if (sh.myPe() == 1) {
                assertEquals(5, a.local()[0]);
                assertEquals(0, a.local()[1]);
                assertEquals(7, a.local()[2]);
                assertEquals(8, a.local()[3]);
                assertEquals(9, a.local()[4]);
                assertEquals(0, a.local()[5]);
                assertEquals(3, a.local()[6]);
                assertEquals(2.5, d.local()[1]);
            }
        });
    }

    @Test
    void shouldSendEveryPutAloneWhenAggregationIsOff() {
        final AtomicLong batches = new AtomicLong(-1);
        job(2, "shmem.aggregateBytes", "0").run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(100);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                for (int i = 0; i < 100; i++) {
                    a.p(1, i, i);
                    a.atomicAdd(1, i, 1);
                }
                sh.quiet();
                batches.set(sh.engine.batch.batchesSent());
            }
            sh.barrierAll();
            if (sh.myPe() == 1) {
                for (int i = 0; i < 100; i++) {
                    assertEquals(i + 1, a.local()[i]);
                }
            }
        });
        assertEquals(0, batches.get());
    }

    @Test
    void shouldRefuseBadAggregationOptions() {
        assertThrows(IllegalArgumentException.class, () -> job(2, "shmem.aggregateBytes", "-1"));
        assertThrows(IllegalArgumentException.class, () -> job(2, "shmem.aggregateDelayNs", "-5"));
        assertThrows(IllegalArgumentException.class, () -> job(2, "shmem.aggregateBytes", "lots"));
    }
}
