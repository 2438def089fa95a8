package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.timing.TimingModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * FM on a virtual-time fabric: a ping-pong of FM messages takes exactly the model's time per frame each way, plus
 * the empty poll that ends each extract (FM over a lossless fabric sends nothing else), and over a fabric that drops frames FM's retransmission runs on the
 * virtual clock, so the losses cost modelled time and every message still arrives once, in order.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualTimeFmTest {
    private static final int ROUNDS = 200;
    private static final int HANDLER = 7;

    /** @return PE 0's virtual nanoseconds for the ping-pong, and FM's retransmissions, of a job with these faults */
    private static long[] pingPong(final FaultPlan plan) {
        final long[] out = new long[2];
        final ClockSettings clock = new ClockSettings(true, "sparc-sbus-1995", Map.of(), false);
        final FmJob.Report report = FmJob.builder().fabric(FabricConfig.builder(2).frameBytes(4096).clock(clock)
            .faultPlan(plan).build()).timeout(Duration.ofSeconds(90)).inProcess().build().run(fm -> {
                final long[] got = new long[1];
                final byte[] in = new byte[8];
                fm.register(HANDLER, (FmHandler) (stream, sender) -> {
                    stream.receive(in, 0, 8);
                    assertEquals(got[0], in[0] & 0xFF, "message order");
                    got[0]++;
                });
                final byte[] msg = new byte[8];
                final long t0 = FmClock.nanoTime();
                for (int i = 0; i < ROUNDS; i++) {
                    msg[0] = (byte) i;
                    final long want = i + 1;
                    if (fm.pe() == 0) {
                        send(fm, msg);
                        assertTrue(fm.extractUntil(() -> got[0] >= want, TimeUnit.SECONDS.toNanos(60)));
                    } else {
                        assertTrue(fm.extractUntil(() -> got[0] >= want, TimeUnit.SECONDS.toNanos(60)));
                        send(fm, msg);
                    }
                }
                if (fm.pe() == 0) {
                    out[0] = FmClock.nanoTime() - t0;
                }
            });
        out[1] = report.totals().framesRetransmitted();
        return out;
    }

    private static void send(final FastMessages fm, final byte[] msg) {
        final FmOutputStream o = fm.beginMessage(1 - fm.pe(), 8, HANDLER);
        o.sendPiece(msg, 0, 8);
        o.endMessage();
    }

    @Test
    void aPingPongTakesTheModelsTimeForOneFrameEachWay() {
        final TimingModel model = new TimingModel(new ClockSettings(true, "sparc-sbus-1995", Map.of(), false).model());
        final TimingModel.Flight f = new TimingModel.Flight();
        model.send(new TimingModel.Timeline(), 0, 8, f);
        final long oneWayPs = model.receive(new TimingModel.Timeline(), f, 8) + model.hostRecvPs(8);
        final long[] clean = pingPong(FaultPlan.none());
        assertEquals(0, clean[1]);
        // Each way: the frame, and the one empty poll that ends the receiver's extract before it answers.
        assertEquals(ROUNDS * 2L * (oneWayPs + model.pollPs()) / 1000, clean[0], 1,
            "FM adds no frame of its own to a ping-pong");
    }

    @Test
    void lostFramesCostTheirTimeoutsInModelledTime() {
        final long clean = pingPong(FaultPlan.none())[0];
        final long[] lossy = pingPong(FaultPlan.builder(7).drop(0.05).build());
        assertTrue(lossy[1] > 0, "FM retransmitted");
        // Every lost frame waits for a timeout: the job takes longer in the model, not only on this machine.
        assertTrue(lossy[0] > clean + TimeUnit.MICROSECONDS.toNanos(100), "lossy " + lossy[0] + " ns against clean "
            + clean + " ns");
        assertEquals(lossy[0], pingPong(FaultPlan.builder(7).drop(0.05).build())[0], "the same losses cost the same");
    }
}
