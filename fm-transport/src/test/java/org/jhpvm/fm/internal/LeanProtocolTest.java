package org.jhpvm.fm.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.FmCounters;
import org.jhpvm.fm.FmOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FM over a fabric that promises end-to-end reliability (Aeron's capabilities, played here by the emulator): no
 * acknowledgements, retransmissions or rejections, every message intact and in order; and a fabric that breaks the
 * promise is caught, not trusted silently.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeanProtocolTest {
    private static final int MESSAGES = 3_000;

    /** A fabric that says what the test wants about its guarantees. */
    private record Claiming(Fabric inner, FabricCapabilities caps) implements Fabric {
        @Override
        public int nicCount() {
            return inner.nicCount();
        }

        @Override
        public int frameBytes() {
            return inner.frameBytes();
        }

        @Override
        public int headerBytes() {
            return inner.headerBytes();
        }

        @Override
        public int receiveRingCapacity() {
            return inner.receiveRingCapacity();
        }

        @Override
        public int poolFrames() {
            return inner.poolFrames();
        }

        @Override
        public FabricCapabilities capabilities() {
            return caps;
        }

        @Override
        public Nic nic(final int id) {
            return inner.nic(id);
        }

        @Override
        public NicCounters totals() {
            return inner.totals();
        }

        @Override
        public boolean isClosed() {
            return inner.isClosed();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private static final FabricCapabilities END_TO_END = new FabricCapabilities(true, true, true, false, true);

    private static int lengthOf(final int i) {
        return i % 10 == 0 ? 40_000 + i : i % 700; // multi-frame messages among small ones
    }

    /** Sends MESSAGES messages 0 to 1 (and 1 echoes a count back); returns both endpoints' counters. */
    private static FmCounters[] exchange(final Fabric fabric, final AtomicReference<Throwable> failure) throws Exception {
        final JobControl job = new JobControl(2);
        final Endpoint a = new Endpoint(fabric, 0, FmConfig.defaults(), job);
        final Endpoint b = new Endpoint(fabric, 1, FmConfig.defaults(), job);
        final int[] next = new int[1];
        final byte[] buf = new byte[60_000];
        b.register(1, (in, sender) -> {
            final int i = in.receiveInt();
            final int n = lengthOf(i);
            in.receive(buf, 0, n);
            for (int k = 0; k < n; k++) {
                if (buf[k] != (byte) (i + k)) {
                    throw new AssertionError("message " + i + " byte " + k + " corrupted");
                }
            }
            if (i != next[0]++) {
                throw new AssertionError("message " + i + " arrived when " + (next[0] - 1) + " was expected");
            }
        });
        a.register(1, (in, sender) -> { });
        final Thread receiver = Thread.ofPlatform().start(() -> {
            try {
                assertTrue(b.extractUntil(() -> next[0] == MESSAGES, TimeUnit.SECONDS.toNanos(30)), "messages missing");
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                job.fail(1, t);
            }
        });
        final byte[] payload = new byte[60_000];
        try {
            for (int i = 0; i < MESSAGES; i++) {
                final int n = lengthOf(i);
                for (int k = 0; k < n; k++) {
                    payload[k] = (byte) (i + k);
                }
                final FmOutputStream out = a.beginMessage(1, 4 + n, 1);
                out.sendInt(i);
                out.sendPiece(payload, 0, n);
                out.endMessage();
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
        receiver.join(40_000);
        assertFalse(receiver.isAlive());
        return new FmCounters[] {a.counters(), b.counters()};
    }

    @Test
    void shouldDeliverEverythingWithoutAcknowledgementsOrRetransmissionOnAnEndToEndReliableFabric() throws Exception {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Fabric fabric = new Claiming(EmulatedMyrinet.create(FabricConfig.builder(2).build()), END_TO_END)) {
            final FmCounters[] c = exchange(fabric, failure);
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(MESSAGES, c[1].messagesHandled());
            for (final FmCounters x : c) {
                assertEquals(0, x.acksSent(), "acknowledgements sent: " + x);
                assertEquals(0, x.nacksSent());
                assertEquals(0, x.framesRetransmitted());
                assertEquals(0, x.bufferRejects() + x.orderRejects() + x.duplicateRejects());
            }
            assertEquals(c[0].framesSent(), c[1].framesConsumed());
        }
    }

    @Test
    void shouldKeepItsOwnProtocolOnTheEmulatedMyrinet() throws Exception {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).build())) {
            final FmCounters[] c = exchange(fabric, failure);
            assertEquals(null, failure.get());
            assertTrue(c[1].acksSent() > 0, "the emulated Myrinet is not end-to-end reliable: FM acknowledges");
        }
    }

    @Test
    void shouldAbortWhenAFabricBreaksItsPromise() throws Exception {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Fabric lossy = EmulatedMyrinet.create(FabricConfig.builder(2)
            .faultPlan(FaultPlan.builder(7).drop(0.05).build()).build());
        try (Fabric fabric = new Claiming(lossy, END_TO_END)) {
            exchange(fabric, failure);
        }
        assertNotNull(failure.get(), "a dropped frame went unnoticed");
        Throwable t = failure.get();
        while (t.getCause() != null && !(t instanceof IllegalStateException)) {
            t = t.getCause();
        }
        assertTrue(String.valueOf(t.getMessage()).contains("broke its guarantee"), String.valueOf(failure.get()));
    }
}
