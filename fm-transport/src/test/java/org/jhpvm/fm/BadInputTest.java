package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class BadInputTest {
    private static final int H = 3;

    @Test
    void shouldRejectBadSendsAndStayUsable() {
        final AtomicInteger handled = new AtomicInteger();
        FmTestSupport.job(2).run(fm -> {
            fm.register(H, (Fm1Handler) (s, b, o, l) -> handled.incrementAndGet());
            if (fm.pe() == 0) {
                assertThrows(IllegalArgumentException.class, () -> fm.send4(1, 7, 0, 0, 0, 0), "unknown handler");
                assertThrows(IllegalArgumentException.class, () -> fm.beginMessage(1, 8, -1));
                assertThrows(IllegalArgumentException.class, () -> fm.beginMessage(1, 8, FastMessages.MAX_HANDLERS));
                assertThrows(IndexOutOfBoundsException.class, () -> fm.send4(2, H, 0, 0, 0, 0), "dest out of range");
                assertThrows(IndexOutOfBoundsException.class, () -> fm.send4(-1, H, 0, 0, 0, 0));
                assertThrows(IllegalArgumentException.class, () -> fm.beginMessage(1, -1, H));
                assertThrows(IndexOutOfBoundsException.class, () -> fm.send(1, H, new byte[4], 2, 3));
                final FmOutputStream out = fm.beginMessage(1, 4, H);
                assertThrows(IllegalStateException.class, () -> fm.beginMessage(1, 4, H), "second open message");
                assertThrows(IllegalArgumentException.class, () -> out.sendPiece(new byte[5], 0, 5), "beyond length");
                assertEquals(0, out.lengthBytes(), "the rejected piece changed nothing");
                assertThrows(IndexOutOfBoundsException.class, () -> out.sendPiece(new byte[2], 1, 2));
                out.sendInt(1);
                assertThrows(IllegalArgumentException.class, () -> out.sendInt(2), "beyond length");
                out.endMessage();
                assertThrows(IllegalStateException.class, () -> out.sendPiece(new byte[1], 0, 1), "after end");
                assertThrows(IllegalStateException.class, out::endMessage, "ended twice");
                assertThrows(IllegalStateException.class, () -> fm.register(9, (Fm1Handler) (s, b, o, l) -> { }),
                    "register after communication");
                fm.send4(1, H, 1, 2, 3, 4);
            } else {
                assertThrows(IllegalArgumentException.class, () -> fm.register(H, (Fm1Handler) (s, b, o, l) -> { }),
                    "registered twice");
                assertThrows(IllegalArgumentException.class, () -> fm.register(FastMessages.MAX_HANDLERS,
                    (Fm1Handler) (s, b, o, l) -> { }));
                assertThrows(IllegalArgumentException.class, () -> fm.extract(0));
                assertTrue(fm.extractUntil(() -> handled.get() == 2, FmTestSupport.WAIT_NS));
            }
        });
        assertEquals(2, handled.get(), "exactly the two good messages arrived");
    }

    @Test
    void shouldRejectReceiveBeyondTheMessageAndOutsideTheHandler() {
        final AtomicReference<FmInputStream> leaked = new AtomicReference<>();
        final AtomicReference<Throwable> beyondDeclared = new AtomicReference<>();
        final AtomicReference<Throwable> beyondEnd = new AtomicReference<>();
        final AtomicReference<Throwable> nestedExtract = new AtomicReference<>();
        final byte[] got = new byte[6];
        final AtomicInteger handled = new AtomicInteger();
        FmTestSupport.job(2).run(fm -> {
            fm.register(H, (FmHandler) (in, sender) -> {
                leaked.set(in);
                beyondDeclared.set(catching(() -> in.receive(new byte[20], 0, 11)));
                in.receive(got, 0, 6);
                beyondEnd.set(catching(() -> in.receive(new byte[4], 0, 4)));
                nestedExtract.set(catching(() -> fm.extract(1)));
                handled.incrementAndGet();
            });
            if (fm.pe() == 0) {
                final FmOutputStream out = fm.beginMessage(1, 10, H);
                out.sendPiece(new byte[] {1, 2, 3, 4, 5, 6}, 0, 6);
                out.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> handled.get() == 1, FmTestSupport.WAIT_NS));
                assertThrows(IllegalStateException.class, () -> leaked.get().receive(new byte[1], 0, 1));
            }
        });
        assertTrue(beyondDeclared.get() instanceof IndexOutOfBoundsException, String.valueOf(beyondDeclared.get()));
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6}, got, "the rejected receive changed nothing");
        assertTrue(beyondEnd.get() instanceof IllegalStateException, String.valueOf(beyondEnd.get()));
        assertTrue(nestedExtract.get() instanceof IllegalStateException, String.valueOf(nestedExtract.get()));
    }

    @Test
    void shouldRejectUseAfterTheEndpointClosed() {
        final AtomicReference<FastMessages> leaked = new AtomicReference<>();
        FmTestSupport.job(2).run(fm -> leaked.compareAndSet(null, fm));
        final FastMessages fm = leaked.get();
        assertTrue(fm.isClosed());
        assertThrows(FmClosedException.class, () -> fm.send4(0, H, 0, 0, 0, 0));
        assertThrows(FmClosedException.class, () -> fm.extract(1));
        assertThrows(FmClosedException.class, () -> fm.beginMessage(0, 1, H));
    }

    @Test
    void shouldDeliverASendToSelfThroughExtract() {
        final AtomicInteger got = new AtomicInteger(-1);
        FmTestSupport.job(1).run(fm -> {
            fm.register(H, (Fm1Handler) (s, b, o, l) -> got.set(s * 1000 + FastMessages.word(b, o, 2)));
            fm.send4(0, H, 0, 0, 77, 0);
            assertEquals(-1, got.get(), "a send never runs the handler");
            assertTrue(fm.extractUntil(() -> got.get() >= 0, FmTestSupport.WAIT_NS));
        });
        assertEquals(77, got.get());
    }

    @Test
    void shouldFailOnAMessageForAHandlerNotRegisteredHere() {
        final FmAbortException e = assertThrows(FmAbortException.class, () -> FmTestSupport.job(2).run(fm -> {
            if (fm.pe() == 0) {
                fm.register(H, (Fm1Handler) (s, b, o, l) -> { });
                fm.send4(1, H, 0, 0, 0, 0);
            }
            fm.extractUntil(() -> false, FmTestSupport.WAIT_NS);
        }));
        assertEquals(1, e.pe());
        assertTrue(e.getCause().getMessage().contains("not registered"), e.getCause().getMessage());
    }

    private static Throwable catching(final Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
