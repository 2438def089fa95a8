package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.jhpvm.fabric.FaultPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class FastMessagesTest {
    private static final int PING = 1;
    private static final int DATA = 2;

    @Test
    void shouldDeliverSend4WordsToTheHandler() {
        final int[][] got = new int[2][];
        FmTestSupport.job(2).run(fm -> {
            fm.register(PING, (Fm1Handler) (sender, buf, off, len) -> {
                assertEquals(16, len);
                got[fm.pe()] = new int[] {sender, FastMessages.word(buf, off, 0), FastMessages.word(buf, off, 1),
                    FastMessages.word(buf, off, 2), FastMessages.word(buf, off, 3)};
            });
            fm.send4(1 - fm.pe(), PING, fm.pe(), -7, Integer.MAX_VALUE, 42);
            assertTrue(fm.extractUntil(() -> got[fm.pe()] != null, FmTestSupport.WAIT_NS));
        });
        assertArrayEquals(new int[] {1, 1, -7, Integer.MAX_VALUE, 42}, got[0]);
        assertArrayEquals(new int[] {0, 0, -7, Integer.MAX_VALUE, 42}, got[1]);
    }

    @Test
    void aWaitShouldEndFalseAtItsTimeoutAndTrueAtOnceWhenItsConditionHolds() {
        final long[] waited = new long[1];
        final boolean[] results = new boolean[3];
        FmTestSupport.job(1).run(fm -> {
            results[0] = fm.extractUntil(() -> false, 0);
            final long t0 = System.nanoTime();
            results[1] = fm.extractUntil(() -> false, 50_000_000L);
            waited[0] = System.nanoTime() - t0;
            results[2] = fm.extractUntil(() -> true, 0);
        });
        assertFalse(results[0], "a zero timeout ends at once, false");
        assertFalse(results[1], "a condition that never holds ends false at the timeout");
        assertTrue(waited[0] >= 50_000_000L, "the wait lasted its timeout: " + waited[0] + " ns");
        assertTrue(results[2], "a condition that holds ends the wait true, whatever the timeout");
    }

    @Test
    void shouldDeliverFm1MessagesWholeAtEverySize() {
        final int[] sizes = {0, 1, 100, 16384, 16385, 100_000, 1 << 20};
        final List<byte[]> got = new ArrayList<>();
        FmTestSupport.job(2).run(fm -> {
            fm.register(DATA, (Fm1Handler) (sender, buf, off, len) -> {
                final byte[] copy = new byte[len];
                System.arraycopy(buf, off, copy, 0, len);
                got.add(copy);
            });
            if (fm.pe() == 0) {
                for (int i = 0; i < sizes.length; i++) {
                    final byte[] m = FmTestSupport.message(1, i, sizes[i]);
                    fm.send(1, DATA, m, 0, m.length);
                }
            } else {
                assertTrue(fm.extractUntil(() -> got.size() == sizes.length, FmTestSupport.WAIT_NS));
            }
        });
        assertEquals(sizes.length, got.size());
        for (int i = 0; i < sizes.length; i++) {
            assertArrayEquals(FmTestSupport.message(1, i, sizes[i]), got.get(i), "message " + i);
        }
    }

    @Test
    void shouldStreamPiecesOfAnySizeAndScatterIndependently() {
        final int length = 200_000;
        final byte[] expected = FmTestSupport.message(2, 0, length);
        final byte[] got = new byte[length];
        final AtomicInteger handled = new AtomicInteger();
        FmTestSupport.job(2).run(fm -> {
            fm.register(DATA, (FmHandler) (in, sender) -> {
                assertEquals(0, sender);
                assertEquals(length + 10, in.declaredLength());
                int pos = 0;
                int piece = 1;
                while (pos < length) {
                    final int n = Math.min(piece, length - pos);
                    in.receive(got, pos, n);
                    pos += n;
                    piece = piece * 3 + 1;
                }
                assertEquals(0, in.receiveUpTo(new byte[10], 0, 10), "the message ended shorter than declared");
                handled.incrementAndGet();
            });
            if (fm.pe() == 0) {
                final FmOutputStream out = fm.beginMessage(1, length + 10, DATA);
                int pos = 0;
                int piece = 7;
                while (pos < length) {
                    final int n = Math.min(piece, length - pos);
                    out.sendPiece(expected, pos, n);
                    pos += n;
                    piece = piece * 2 + 5;
                }
                out.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> handled.get() == 1, FmTestSupport.WAIT_NS));
            }
        });
        assertArrayEquals(expected, got);
    }

    @Test
    void shouldKeepOrderAndExactlyOnceUnderFaults() {
        final FaultPlan plan = FaultPlan.builder(11).drop(0.05).corrupt(0.02).duplicate(0.02).reorder(0.02)
            .build();
        final int messages = 300;
        final int[][] next = new int[3][3];
        final FmJob.Report report = FmTestSupport.job(3, plan).run(fm -> {
            fm.register(DATA, (FmHandler) (in, sender) -> {
                final int index = in.receiveInt();
                final int length = in.declaredLength() - 4;
                final byte[] body = new byte[length];
                in.receive(body, 0, length);
                assertEquals(next[fm.pe()][sender], index, "order from PE " + sender);
                assertArrayEquals(FmTestSupport.message(sender, index, length), body);
                next[fm.pe()][sender]++;
            });
            for (int i = 0; i < messages; i++) {
                for (int d = 0; d < fm.pes(); d++) {
                    final int length = (i * 7919 + d * 31) % 40_000;
                    final FmOutputStream out = fm.beginMessage(d, length + 4, DATA);
                    out.sendInt(i);
                    final byte[] body = FmTestSupport.message(fm.pe(), i, length);
                    out.sendPiece(body, 0, length);
                    out.endMessage();
                    fm.extract(1 << 14);
                }
            }
            assertTrue(fm.extractUntil(() -> {
                for (int s = 0; s < fm.pes(); s++) {
                    if (next[fm.pe()][s] != messages) {
                        return false;
                    }
                }
                return true;
            }, FmTestSupport.WAIT_NS));
        });
        final FmCounters t = report.totals();
        assertTrue(t.framesRetransmitted() > 0, t.toString());
        assertTrue(t.checksumRejects() > 0, t.toString());
        assertTrue(t.duplicateRejects() > 0, t.toString());
        assertEquals(3 * 3 * messages, t.messagesHandled());
    }
}
