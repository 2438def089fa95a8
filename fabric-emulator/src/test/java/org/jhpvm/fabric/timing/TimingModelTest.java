package org.jhpvm.fabric.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The arithmetic of the timing model, one cost term at a time; exact in picoseconds. */
class TimingModelTest {
    /** 1000 bytes at 100 MB/s: 10 us. */
    private static final double RATE = 100;

    /** A machine whose every stage has its own fixed cost and rate, all store and forward. */
    private static MachineModel storeAndForward() {
        return new MachineModel("t", "test", 1.0, 10, 0,
            Stage.of(true, 1000, 400, false),   // host send: 1 us + PIO at 400 MB/s
            Stage.of(true, 200, 200, false),    // send DMA
            Stage.of(true, 300, 0, false),      // NIC send processing
            500_000,                            // link latency 0.5 us
            Stage.of(true, 0, RATE, true),      // link serialisation
            Stage.of(true, 300, 0, false),      // NIC receive processing
            Stage.of(true, 200, 200, false),    // receive DMA
            Stage.of(true, 700, 1000, false),   // host receive: 0.7 us + copy at 1000 MB/s
            100_000, Map.of());
    }

    private static long bytesPs(final int bytes, final double mbps) {
        return Math.round(bytes * 1.0e6 / mbps);
    }

    @Test
    void aFrameOnAnIdlePathTakesExactlyTheSumOfItsStages() {
        final TimingModel model = new TimingModel(storeAndForward());
        final int payload = 990; // 1000 bytes on the wire with the 10-byte header
        final TimingModel.Timeline tx = new TimingModel.Timeline();
        final TimingModel.Timeline rx = new TimingModel.Timeline();
        final TimingModel.Flight f = new TimingModel.Flight();
        final long departure = 5_000_000;
        model.send(tx, departure, payload, f);
        final long arrival = model.receive(rx, f, payload);
        final long expected = departure
            + 1_000_000 + bytesPs(1000, 400)       // host send
            + 200_000 + bytesPs(1000, 200)         // send DMA
            + 300_000                              // NIC send
            + 500_000 + bytesPs(1000, RATE)        // link
            + 300_000                              // NIC receive
            + 200_000 + bytesPs(1000, 200);        // receive DMA
        assertEquals(expected, arrival);
        assertEquals(1_000_000 + bytesPs(1000, 400), model.hostSendPs(payload));
        assertEquals(700_000 + bytesPs(1000, 1000), model.hostRecvPs(payload));
        assertEquals(100_000, model.pollPs());
    }

    @Test
    void cutThroughStagesOverlapWithTheStageBefore() {
        final MachineModel m = new MachineModel("t", "test", 1.0, 0, 0,
            Stage.of(true, 1000, 50, false),  // host PIO at 50 MB/s: the slowest stage
            Stage.SKIPPED,
            Stage.of(true, 300, 0, true),     // the NIC starts on the first bytes
            500_000,
            Stage.of(true, 0, RATE, true),
            Stage.of(true, 300, 0, true),
            Stage.SKIPPED,
            Stage.of(true, 700, 0, false),
            100_000, Map.of());
        final TimingModel model = new TimingModel(m);
        final TimingModel.Flight f = new TimingModel.Flight();
        model.send(new TimingModel.Timeline(), 0, 1000, f);
        // The link starts after the host's and the NIC's fixed costs, and its last byte leaves when the host's has.
        assertEquals(1_000_000 + 300_000 + 500_000, f.headAtSwitchPs);
        assertEquals(1_000_000 + bytesPs(1000, 50) + 500_000, f.tailAtSwitchPs);
        final long arrival = model.receive(new TimingModel.Timeline(), f, 1000);
        assertEquals(f.tailAtSwitchPs, arrival, "the receiving NIC's cut-through stage ends with the last byte");
        assertEquals(1_000_000 + 300_000 + 500_000, model.sendLookaheadPs());
        assertEquals(model.sendLookaheadPs() + 300_000, model.lookaheadPs());
    }

    @Test
    void twoSendersToOneReceiverContendForItsSwitchPort() {
        final TimingModel model = new TimingModel(storeAndForward());
        final TimingModel.Timeline rx = new TimingModel.Timeline();
        final TimingModel.Flight a = new TimingModel.Flight();
        final TimingModel.Flight b = new TimingModel.Flight();
        model.send(new TimingModel.Timeline(), 0, 990, a);
        model.send(new TimingModel.Timeline(), 0, 990, b);
        assertEquals(a.headAtSwitchPs, b.headAtSwitchPs, "both reach the port at once");
        final long first = model.receive(rx, a, 990);
        final long portFree = rx.linkInBusyPs();
        final long second = model.receive(rx, b, 990);
        // The second waits for the port: its serialisation starts when the first's has ended.
        assertEquals(portFree + bytesPs(1000, RATE), rx.linkInBusyPs());
        assertEquals(first + bytesPs(1000, RATE), second, "the second frame arrives one serialisation later");
        // Alone it would have arrived with the first.
        assertEquals(first, model.receive(new TimingModel.Timeline(), b, 990));
    }

    @Test
    void framesOfOneSenderQueueForItsLink() {
        final TimingModel model = new TimingModel(storeAndForward());
        final TimingModel.Timeline tx = new TimingModel.Timeline();
        final TimingModel.Flight a = new TimingModel.Flight();
        final TimingModel.Flight b = new TimingModel.Flight();
        model.send(tx, 0, 990, a);
        model.send(tx, 0, 990, b); // sent at the same time: queues behind the first at every resource
        final long dmaPs = 200_000 + bytesPs(1000, 200);
        final long linkPs = bytesPs(1000, RATE);
        assertTrue(linkPs > dmaPs, "the link is this machine's slowest stage");
        assertEquals(a.headAtSwitchPs + linkPs, b.headAtSwitchPs, "the second leaves when the first's last byte has");
        assertEquals(a.tailAtSwitchPs + linkPs, b.tailAtSwitchPs);
        assertEquals(b.tailAtSwitchPs - 500_000, tx.linkOutBusyPs());
    }

    @Test
    void aMachineWhoseFramesTakeNoTimeIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MachineModel("z",
            "zero", 1, 0, 0, Stage.of(true, 0, 0, false), Stage.SKIPPED, Stage.of(true, 0, 0, false), 0,
            Stage.of(true, 0, 100, true), Stage.SKIPPED, Stage.SKIPPED, Stage.of(true, 0, 0, false), 1, Map.of()));
        assertTrue(e.getMessage().contains("stages.link.latency_ns"), e.getMessage());
    }
}
