package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.fm.FmOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
class BadInputTest {
    @Test
    void shouldRejectBadArgumentsBeforeSendingAndChangeNothingAnywhere() {
        final AtomicReference<long[][]> after = new AtomicReference<>(new long[3][]);
        ShmemTestSupport.job(3).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(8);
            final SymmetricInts flags = sh.mallocInts(1);
            java.util.Arrays.fill(a.local(), 7);
            sh.barrierAll();
            final long sentBefore = sh.engine.fm.counters().messagesSent();
            final long[] src = {1, 2, 3, 4};
            assertThrows(IndexOutOfBoundsException.class, () -> a.put(3, 0, src, 0, 4), "PE out of range");
            assertThrows(IndexOutOfBoundsException.class, () -> a.put(-1, 0, src, 0, 4), "negative PE");
            final IndexOutOfBoundsException beyond = assertThrows(IndexOutOfBoundsException.class,
                () -> a.put(2, 6, src, 0, 4), "beyond the object");
            // named as the copy the put aims at, on PE 2, not the caller's own
            assertTrue(beyond.getMessage().contains("outside symmetric object SymmetricLongs#0 on PE 2 of length 8"),
                beyond.getMessage());
            assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> a.atomicAdd(2, 9, 1)).getMessage()
                .contains("on PE 2"));
            assertThrows(IndexOutOfBoundsException.class, () -> a.put(1, 0, src, 2, 4), "beyond the source");
            assertThrows(IllegalArgumentException.class, () -> a.put(1, 0, src, 0, -1), "negative count");
            assertThrows(IllegalArgumentException.class, () -> a.iput(1, 0, 0, src, 0, 1, 2), "stride 0");
            assertThrows(IndexOutOfBoundsException.class, () -> a.iput(1, 0, 3, src, 0, 1, 4), "strided beyond");
            assertThrows(IndexOutOfBoundsException.class, () -> a.get(1, 5, new long[4], 0, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> a.g(1, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> a.atomicFetchAdd(1, -1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.acc(1, 7, src, 0, 2, 1L));
            assertThrows(IndexOutOfBoundsException.class, () -> a.putSignal(1, 0, src, 0, 4, a, 8, 1, SignalOp.SET),
                "signal index beyond");
            assertThrows(NullPointerException.class, () -> a.put(1, 0, null, 0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> flags.waitUntil(1, Cmp.EQ, 0));
            assertThrows(IllegalArgumentException.class, () -> flags.waitUntilAll(0, 1, new int[0], Cmp.EQ, 0));
            assertThrows(IndexOutOfBoundsException.class,
                () -> a.broadcast(sh.teamWorld(), 0, src, 0, 4, 3), "root outside the team");
            assertThrows(IndexOutOfBoundsException.class,
                () -> a.fcollect(sh.teamWorld(), 0, src, 0, 4), "3 x 4 elements do not fit in 8");
            assertThrows(IllegalArgumentException.class,
                () -> sh.reduce(sh.teamWorld(), ReduceOp.AND, new double[1], new double[1], 1));
            assertThrows(IndexOutOfBoundsException.class,
                () -> sh.reduce(sh.teamWorld(), ReduceOp.SUM, new long[1], new long[2], 2), "dest too small");
            assertEquals(sentBefore, sh.engine.fm.counters().messagesSent(), "a rejected call sent nothing");
            sh.barrierAll();
            after.get()[sh.myPe()] = a.local().clone();
        });
        for (final long[] a : after.get()) {
            assertArrayEquals(new long[] {7, 7, 7, 7, 7, 7, 7, 7}, a, "no memory anywhere changed");
        }
    }

    @Test
    void shouldRejectObjectsAndTeamsOfAnotherPe() {
        final AtomicReference<SymmetricLongs> pe0s = new AtomicReference<>();
        final AtomicReference<ShmemTeam> pe0team = new AtomicReference<>();
        final java.util.concurrent.CountDownLatch shared = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.ConcurrentLinkedQueue<String> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        ShmemTestSupport.job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(4);
            if (sh.myPe() == 0) {
                pe0s.set(a);
                pe0team.set(sh.teamWorld());
                shared.countDown();
            } else {
                assertTrue(shared.await(30, java.util.concurrent.TimeUnit.SECONDS));
                try {
                    pe0s.get().p(0, 0, 5);
                    failures.add("PE 1 used PE 0's symmetric object");
                } catch (IllegalStateException | IllegalArgumentException expected) {
                    // expected
                }
                try {
                    sh.sync(pe0team.get());
                    failures.add("PE 1 used PE 0's team");
                } catch (IllegalArgumentException expected) {
                    // expected
                }
            }
            sh.barrierAll();
            assertEquals(0, a.local()[0]);
        });
        assertTrue(failures.isEmpty(), failures.toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"index outside the object", "wrong protection key", "freed object"})
    void shouldRefuseAnInjectedBadNicPutAtTheTargetWithoutTouchingMemory(final String bad) {
        final long[][] target = new long[1][];
        final ShmemAbortException e = assertThrows(ShmemAbortException.class, () -> ShmemTestSupport.job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(4);
            java.util.Arrays.fill(a.local(), 9);
            final SymmetricLongs gone = sh.mallocLongs(4);
            sh.free(gone);
            if (sh.myPe() == 1) {
                target[0] = a.local();
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                // Only a bug or corruption sends these: elements 2..5 of a 4-element object, a key that is not the
                // object's, an object that no longer exists.
                final int id = bad.startsWith("freed") ? gone.id : a.id;
                final int key = bad.startsWith("wrong") ? a.key ^ 0x10 : NicRequests.keyOf(id);
                final int index = bad.startsWith("index") ? 2 : 0;
                final FmOutputStream out = sh.engine.nic.begin(1, MessageDescriptor.NIC_PUT_HEADER_BYTES + 32,
                    MessageDescriptor.N_PUT, 0);
                out.sendInt(id);
                out.sendInt(key);
                out.sendInt(index);
                out.sendInt(1);
                out.sendInt(4);
                out.sendInt(1);
                out.sendLongs(new long[] {1, 2, 3, 4}, 0, 1, 4);
                out.endMessage();
            }
            sh.barrierAll(); // PE 0's quiet sees the refusal and raises it
        }));
        assertTrue(e.getMessage().contains("was refused"), e.getMessage());
        assertEquals(0, e.pe(), "the initiator raises the refusal");
        assertArrayEquals(new long[] {9, 9, 9, 9}, target[0], "memory untouched");
    }
}
