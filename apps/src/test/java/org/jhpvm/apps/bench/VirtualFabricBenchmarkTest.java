package org.jhpvm.apps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.timing.MachineModel;
import org.jhpvm.fabric.timing.TimingModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code bench fabric --clock virtual}: raw frames take exactly the model's time, and a stream its bottleneck's. */
@Timeout(120)
class VirtualFabricBenchmarkTest {
    @Test
    void aFrameTakesTheModelsOneWayTimeAndAStreamItsSlowestStage() throws InterruptedException {
        final ClockSettings clock = new ClockSettings(true, "ppro-pci-1998", Map.of(), false);
        final VirtualFabricBenchmark.Result r = VirtualFabricBenchmark.run(clock, 20, 60, x -> { });
        final MachineModel machine = clock.model();
        final TimingModel model = new TimingModel(machine);
        assertEquals(r.frameBytes(), machine.packetBytes(), "the machine's packets are the frames");
        for (int i = 0; i < r.sizes().length; i++) {
            final int size = r.sizes()[i];
            final TimingModel.Flight f = new TimingModel.Flight();
            model.send(new TimingModel.Timeline(), 0, size, f);
            // Sent at 0 from an idle path: the receiver has it at its arrival plus its own work.
            final long oneWayPs = model.receive(new TimingModel.Timeline(), f, size) + model.hostRecvPs(size);
            assertEquals(oneWayPs / 1e6, r.latencyUs()[i], 1e-6, "one-way time of a " + size + "-byte frame");
            // A stream goes no faster than its slowest stage: the sender's host work at least.
            assertTrue(r.perFrameUs()[i] >= model.hostSendPs(size) / 1e6 - 1e-6, "per-frame time at " + size);
        }
        assertTrue(r.rInfMBps() > 0 && r.nHalfBytes() > 0);
    }
}
