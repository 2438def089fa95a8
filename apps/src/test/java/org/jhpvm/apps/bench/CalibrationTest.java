package org.jhpvm.apps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.timing.MachineFiles;
import org.jhpvm.fabric.timing.MachineModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jhpvm calibrate}'s fit, without a wall clock: the "measured" curves come from a virtual-time run on a
 * machine whose costs are known, so the fit must find a machine that runs the same curves again (a model results,
 * deterministic, not a timing).
 */
@Timeout(300)
class CalibrationTest {
    @TempDir
    Path dir;

    /** A machine like this host's: cheap small messages, per-message costs that change at the rendezvous size. */
    private static final String TRUTH = """
        {"schema": 1, "name": "truth", "description": "known costs", "header_bytes": 0, "packet_bytes": 1048576,
         "stages": {"host_send": {"fixed_ns": 400, "MBps": 5000,
                                  "segments": [{"from_bytes": 32768, "fixed_ns": 2500, "MBps": 60000}]},
                    "link": {"latency_ns": 300, "MBps": 10000000},
                    "host_recv": {"fixed_ns": 250, "MBps": 20000,
                                  "segments": [{"from_bytes": 32768, "fixed_ns": 1000, "MBps": 90000}]},
                    "host_poll": {"fixed_ns": 10}}}
        """;

    private FmSweep.Curve virtualSweep(final String machineFile) {
        final ClockSettings clock = new ClockSettings(true, machineFile, Map.of(), false);
        // Few bytes per point: the model's times do not depend on how many messages a point averages.
        return FmSweep.run(FabricConfig.builder(2).frameBytes(Calibration.PACKET_BYTES).clock(clock).build(), 0, 1,
            256 << 10, x -> { });
    }

    private String write(final String name, final ObjectNode json) {
        try {
            final Path f = dir.resolve(name);
            new ObjectMapper().writeValue(f.toFile(), json);
            return f.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aLineIsFittedExactlyToPointsOnALine() {
        final int[] sizes = {8, 64, 512, 4096, 65536};
        final double[] x = {8, 64, 512, 4096, 65536};
        final double[] y = new double[x.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = 0.5 + 0.001 * x[i];
        }
        final Calibration.Line all = Calibration.Line.fit(sizes, x, y, 0, Integer.MAX_VALUE);
        assertEquals(0.5, all.a(), 1e-9);
        assertEquals(0.001, all.b(), 1e-12);
        // Only the points in the range count: the last alone gives a flat line through it.
        final Calibration.Line last = Calibration.Line.fit(sizes, x, y, 5000, Integer.MAX_VALUE);
        assertEquals(0, last.b());
        assertEquals(y[4], last.a(), 1e-9);
    }

    @Test
    void theFittedMachineRunsTheMeasuredCurvesAgain() throws IOException {
        final Path truthFile = dir.resolve("truth.json");
        Files.writeString(truthFile, TRUTH);
        final FmSweep.Curve measured = virtualSweep(truthFile.toString());
        final Calibration.Fitted fitted = Calibration.calibrate(measured, 32768, "a test", 300.0,
            file -> virtualSweep(write("candidate.json", file)));
        final String file = write("this-machine.json", fitted.file());
        final MachineModel m = MachineFiles.load(file, Map.of());
        assertEquals(MachineFiles.THIS_MACHINE, m.name());
        assertEquals(Calibration.PACKET_BYTES, m.packetBytes());
        assertEquals(2, m.hostSend().segments().size(), "a segment from the rendezvous size and one from 1 MiB");
        assertEquals(32768, m.hostSend().segments().get(0).fromBytes());
        assertEquals(300.0, MachineFiles.note(file, Calibration.SPSC_NOTE));
        // What the fitted machine runs is what was measured: the calibration's own check, and a run of the file
        // as written.
        final ModelCheck again = new ModelCheck(virtualSweep(file), measured);
        assertEquals(fitted.check().maxError(), again.maxError(), 1e-9, "the file written is the machine checked");
        for (int i = 0; i < FmSweep.SIZES.length; i++) {
            if (FmSweep.SIZES[i] <= Calibration.PACKET_BYTES) {
                // One packet: the model is the sum of the fitted lines.
                assertTrue(Math.abs(again.latencyError(i)) < 0.10, "latency at " + FmSweep.SIZES[i] + " B: "
                    + again.latencyError(i));
                assertTrue(Math.abs(again.bandwidthError(i)) < 0.10, "bandwidth at " + FmSweep.SIZES[i] + " B: "
                    + again.bandwidthError(i));
            }
        }
        assertTrue(again.maxError() < 0.25, "several packets: " + again.maxError());
    }
}
