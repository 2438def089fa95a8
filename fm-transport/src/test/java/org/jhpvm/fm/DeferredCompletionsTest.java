package org.jhpvm.fm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deferred completions ({@link FastMessages#deferCompletions}): where FM carries NIC messages and RDMA in its own
 * messages, the successes of requests that want only their outcome come when the requester asks, every
 * {@code REPORT_EVERY} (64), or just before a failed one's answer; completions keep their order per target. PE 0
 * asks, PE 1 serves (it extracts inside the barriers).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeferredCompletionsTest {
    /** Stores (index, value) into the registered array (handle 5, key 55); rejects a negative index. */
    private static final int STORE = 1;
    private static final int HANDLE = 5;
    private static final int KEY = 55;
    /** After the requests: long enough for answers that were sent to arrive (they precede the second barrier). */
    private static final long DRAIN_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private static FmJob job(final boolean offload) {
        return FmJob.builder().pes(2).timeout(Duration.ofSeconds(50))
            .option("fm.nicOffload", Boolean.toString(offload)).build();
    }

    private static void store(final FastMessages fm) {
        fm.registerNicHandler(STORE, m -> {
            final long[] mem = (long[]) m.memory(m.receiveInt(), m.receiveInt());
            final int index = m.receiveInt();
            final long value = m.receiveLong();
            if (mem == null || index < 0) {
                m.reject();
                return;
            }
            mem[index] = value;
        });
    }

    private static void send(final FastMessages fm, final int index, final long value, final long context) {
        final FmOutputStream out = fm.beginNicMessage(1, 20, STORE, null, 0, 0, context);
        out.sendInt(HANDLE);
        out.sendInt(KEY);
        out.sendInt(index);
        out.sendLong(value);
        out.endMessage();
    }

    /** Extracts and takes completions for {@code ns}, without asking for deferred ones. */
    private static List<FmCompletion> drain(final FastMessages fm, final long ns) {
        final List<FmCompletion> got = new ArrayList<>();
        final long end = System.nanoTime() + ns;
        while (System.nanoTime() < end) {
            fm.extract();
            FmCompletion c = new FmCompletion();
            while (fm.pollCompletion(c)) {
                got.add(c);
                c = new FmCompletion();
            }
        }
        return got;
    }

    private static List<FmCompletion> await(final FastMessages fm, final int n) {
        final List<FmCompletion> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final FmCompletion c = new FmCompletion();
            assertTrue(fm.awaitCompletion(c, TimeUnit.SECONDS.toNanos(20)), "completion " + i + " of " + n);
            got.add(c);
        }
        return got;
    }

    /** What a PE of the job does at one step: {@code mem} is its registered array (handle 5, key 55). */
    private interface Step {
        void run(FastMessages fm, long[] mem) throws Exception;
    }

    /**
     * A job of 2 PEs: each registers a 16-word array and the STORE handler; PE 0 posts {@code requests}; after two
     * barriers (PE 1 has served them, and anything it sent while leaving the first has arrived) each PE runs
     * {@code checks}; a last barrier ends the job.
     */
    private static void twoPes(final boolean offload, final Step requests, final Step checks) {
        job(offload).run(fm -> {
            final Barrier b = new Barrier(fm);
            store(fm);
            final long[] mem = new long[16];
            fm.register(mem, HANDLE, KEY);
            b.await();
            if (fm.pe() == 0) {
                requests.run(fm, mem);
            }
            b.await();
            b.await();
            checks.run(fm, mem);
            b.await();
        });
    }

    private static void assertOk(final List<FmCompletion> got, final long firstContext) {
        for (int i = 0; i < got.size(); i++) {
            assertTrue(got.get(i).ok(), got.get(i)::toString);
            assertEquals(firstContext + i, got.get(i).context(), "completions in the order posted");
        }
    }

    @Test
    void successesShouldWaitUntilAskedThenCompleteInOrder() {
        twoPes(false, (fm, mem) -> {
            fm.deferCompletions(true);
            for (int i = 0; i < 10; i++) {
                send(fm, i, 100 + i, i);
            }
        }, (fm, mem) -> {
            if (fm.pe() == 0) {
                assertEquals(List.of(), drain(fm, DRAIN_NS), "no completion before PE 0 asks");
                fm.requestCompletions();
                final List<FmCompletion> got = await(fm, 10);
                assertOk(got, 0);
                assertEquals(FmCompletion.NIC_MESSAGE, got.get(0).op());
                assertEquals(0, got.get(0).lengthBytes());
                fm.requestCompletions(); // nothing left to ask about: no message, no completion
                assertEquals(List.of(), drain(fm, DRAIN_NS));
            } else {
                for (int i = 0; i < 10; i++) {
                    assertEquals(100 + i, mem[i], "the requests ran before PE 0 asked");
                }
            }
        });
    }

    @Test
    void aFailureShouldComeAtOnceAfterTheSuccessesBeforeIt() {
        final long[] src = {7, 8, 9, 10, 11, 12, 13, 14};
        twoPes(false, (fm, mem) -> {
            final FmRegion local = fm.register(src);
            fm.deferCompletions(true);
            send(fm, 0, 1, 0);
            fm.rdmaWrite(local, 0, 1, HANDLE, KEY, 64, 64, 1); // mem[8..15]
            send(fm, 1, 2, 2);
            fm.rdmaWrite(local, 0, 1, HANDLE, KEY + 1, 0, 8, 3); // a wrong key: refused
            send(fm, 2, 3, 4);
            send(fm, -1, 4, 5); // refused by the handler
            send(fm, 3, 5, 6);
        }, (fm, mem) -> {
            if (fm.pe() == 0) {
                final List<FmCompletion> before = drain(fm, DRAIN_NS);
                assertEquals(6, before.size(), () -> "up to the last failure, unasked: " + before);
                assertOk(before.subList(0, 3), 0);
                assertEquals(FmCompletion.RDMA_WRITE, before.get(1).op());
                assertEquals(64, before.get(1).lengthBytes());
                assertEquals(3, before.get(3).context());
                assertEquals(FmCompletion.ERR_BAD_KEY, before.get(3).status());
                assertEquals(4, before.get(4).context());
                assertTrue(before.get(4).ok());
                assertEquals(5, before.get(5).context());
                assertEquals(FmCompletion.ERR_REJECTED, before.get(5).status());
                fm.requestCompletions();
                assertOk(await(fm, 1), 6);
            } else {
                assertEquals(List.of(1L, 2L, 3L, 5L, 0L), List.of(mem[0], mem[1], mem[2], mem[3], mem[4]));
                assertEquals(14, mem[15], "the write landed");
            }
        });
    }

    @Test
    void aTargetShouldReportOnItsOwnEverySixtyFour() {
        twoPes(false, (fm, mem) -> {
            fm.deferCompletions(true);
            for (int i = 0; i < 64 * 2 + 5; i++) {
                send(fm, 0, i, i);
            }
        }, (fm, mem) -> {
            if (fm.pe() == 0) {
                final List<FmCompletion> unasked = drain(fm, DRAIN_NS);
                assertEquals(128, unasked.size(), "two reports of 64, unasked");
                assertOk(unasked, 0);
                fm.requestCompletions();
                assertOk(await(fm, 5), 128);
            }
        });
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void completionsShouldComeUnaskedWhereNothingIsDeferred(final boolean offload) {
        // Off by default on FM's message path; on the NIC's path deferral changes nothing.
        twoPes(offload, (fm, mem) -> {
            fm.deferCompletions(offload);
            for (int i = 0; i < 4; i++) {
                send(fm, i, i, i);
            }
        }, (fm, mem) -> {
            if (fm.pe() == 0) {
                final List<FmCompletion> got = drain(fm, DRAIN_NS);
                assertEquals(4, got.size(), () -> "unasked: " + got);
                assertOk(got, 0);
            }
        });
    }

    @Test
    void awaitCompletionShouldAskByItself() {
        job(false).run(fm -> {
            final Barrier b = new Barrier(fm);
            store(fm);
            fm.register(new long[4], HANDLE, KEY);
            b.await();
            if (fm.pe() == 0) {
                fm.deferCompletions(true);
                send(fm, 1, 1, 41);
                assertEquals(41, await(fm, 1).get(0).context());
            }
            b.await();
        });
    }
}
