package org.jhpvm.fabric.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Machine files: the bundled ones load, switches apply, and a file that breaks the schema is refused by key. */
class MachineFilesTest {
    @TempDir
    Path dir;

    private static final String GOOD = """
        {"schema": 1, "name": "m", "description": "test machine", "header_bytes": 8,
         "stages": {"host_send": {"fixed_ns": 1000, "MBps": 20}, "link": {"latency_ns": 500, "MBps": 80},
                    "nic_rx": {"fixed_ns": 300, "after_ns": 50}, "host_poll": {"fixed_ns": 100}},
         "switches": {"fast": {"description": "d", "default": "no",
                               "choices": {"no": {}, "yes": {"stages.host_send.fixed_ns": {"add": -400},
                                                             "stages.nic_rx.cut_through": true}}}}}
        """;

    private String write(final String json) throws IOException {
        final Path file = dir.resolve("m.json");
        Files.writeString(file, json);
        return file.toString();
    }

    @Test
    void everyBundledMachineLoadsWithItsDefaults() {
        for (final String name : MachineFiles.BUNDLED) {
            final MachineModel m = MachineFiles.load(name, Map.of());
            assertEquals(name, m.name());
            assertTrue(new TimingModel(m).lookaheadPs() > 0, name);
        }
        assertEquals("hybrid", MachineFiles.load("sparc-sbus-1995", Map.of()).switches().get("sbus"));
        assertTrue(MachineFiles.sources("sparc-sbus-1995").containsKey("stages.link.MBps"));
    }

    @Test
    void aFileIsReadWithItsSwitchesAndAddsApply() throws IOException {
        final String file = write(GOOD);
        final MachineModel plain = MachineFiles.load(file, Map.of());
        assertEquals(1_000_000, plain.hostSend().fixedPs());
        assertEquals(50_000, plain.nicRx().afterPs());
        assertTrue(!plain.nicRx().cutThrough());
        assertEquals(12_500_000, plain.link().psPerKiloByte(), "80 MB/s: 12.5 ns per byte, 12.5 us per 1000");
        final MachineModel fast = MachineFiles.load(file, Map.of("fast", "yes"));
        assertEquals(600_000, fast.hostSend().fixedPs());
        assertTrue(fast.nicRx().cutThrough());
        assertEquals(Map.of("fast", "yes"), fast.switches());
        assertTrue(MachineFiles.switches(file).get("fast").startsWith("no|yes (default no)"));
    }

    private void refused(final String json, final String expected) throws IOException {
        final String file = write(json);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> MachineFiles.load(file, Map.of()));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void aFileThatBreaksTheSchemaIsRefusedNamingTheKey() throws IOException {
        refused(GOOD.replace("\"header_bytes\": 8", "\"header_bytes\": -8"), "'header_bytes' = -8");
        refused(GOOD.replace("\"latency_ns\": 500", "\"latency_ns\": \"fast\""), "'stages.link.latency_ns'");
        refused(GOOD.replace("\"after_ns\": 50", "\"aftr_ns\": 50"), "unknown key 'stages.nic_rx.aftr_ns'");
        refused(GOOD.replace("\"header_bytes\": 8,", ""), "'header_bytes' is required");
        refused(GOOD.replace("\"schema\": 1", "\"schema\": 2"), "'schema' must be 1");
        refused(GOOD.replace("\"default\": \"no\"", "\"default\": \"maybe\""), "'default' must name one");
        refused(GOOD.replace("\"MBps\": 80", "\"MBps\": 0"), "'stages.link.MBps' must be > 0");
        refused(GOOD.replace("{\"add\": -400}", "{\"plus\": 1}"), "must be a number or {\"add\": number}");
        refused("[1, 2]", "one JSON object");
        refused("{\"schema\": 1,", "not valid JSON");
    }

    @Test
    void anUnknownMachineSwitchOrChoiceIsRefused() throws IOException {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFiles.load("sparc-1994", Map.of()))
            .getMessage().contains("unknown machine 'sparc-1994'"));
        final String file = write(GOOD);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFiles.load(file, Map.of("slow", "yes")))
            .getMessage().contains("no switch 'slow'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFiles.load(file, Map.of("fast", "very")))
            .getMessage().contains("no choice 'very'"));
        // A switch whose adds take a cost below 0 is refused when built, naming the key.
        Files.writeString(Path.of(file), GOOD.replace("-400", "-4000"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFiles.load(file, Map.of("fast", "yes")))
            .getMessage().contains("'stages.host_send.fixed_ns' comes to -3000"));
    }

    private static final String SEGMENTED = GOOD.replace("\"host_send\": {\"fixed_ns\": 1000, \"MBps\": 20}",
        "\"host_send\": {\"fixed_ns\": 1000, \"MBps\": 20, \"segments\": [{\"from_bytes\": 1000, \"fixed_ns\": 200, "
            + "\"MBps\": 100}, {\"from_bytes\": 5000, \"fixed_ns\": 4000}]}");

    @Test
    void segmentsCostFramesFromTheirSizeOn() throws IOException {
        final Stage s = MachineFiles.load(write(SEGMENTED), Map.of()).hostSend();
        // Below the first segment: 1000 ns + 50 ns/B (20 MB/s).
        assertEquals(1_000_000 + 999 * 50_000L, s.timePs(999));
        // From 1000 B: 200 ns + 10 ns/B (100 MB/s).
        assertEquals(200_000 + 1000 * 10_000L, s.timePs(1000));
        assertEquals(200_000 + 4999 * 10_000L, s.timePs(4999));
        // From 5000 B: 4000 ns, no per-byte cost.
        assertEquals(4_000_000, s.timePs(5000));
        assertEquals(4_000_000, s.hostPs(1 << 20));
        assertEquals(200_000, s.leastFixedPs(), "the lookahead counts on the least fixed cost of any segment");
    }

    @Test
    void badSegmentsAreRefusedNamingTheKey() throws IOException {
        refused(SEGMENTED.replace("\"from_bytes\": 5000", "\"from_bytes\": 500"),
            "'stages.host_send.segments[1].from_bytes' = 500 must be an integer above");
        refused(SEGMENTED.replace("\"fixed_ns\": 4000", "\"fixed_ns\": -1"),
            "'stages.host_send.segments[1].fixed_ns'");
        refused(SEGMENTED.replace("\"fixed_ns\": 4000", "\"fixd_ns\": 4000"),
            "'stages.host_send.segments[1]' must be");
        refused(GOOD.replace("\"MBps\": 20}", "\"MBps\": 20, \"segments\": 5}"),
            "'stages.host_send.segments' must be a list");
    }

    @Test
    void aMachineMeasuredHereIsFoundByNameInTheMachineDirectory() throws IOException {
        final String before = System.getProperty("jhpvm.machines");
        System.setProperty("jhpvm.machines", dir.toString());
        try {
            final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> MachineFiles.load(MachineFiles.THIS_MACHINE, Map.of()));
            assertTrue(none.getMessage().contains("run bin/jhpvm calibrate"), none.getMessage());
            Files.writeString(dir.resolve("this-machine.json"), GOOD.replace("\"name\": \"m\"",
                "\"name\": \"this-machine\"").replace("\"header_bytes\": 8,", "\"header_bytes\": 8, \"notes\": "
                + "{\"spsc_hop_ns\": 321.5},"));
            assertEquals(MachineFiles.THIS_MACHINE, MachineFiles.load(MachineFiles.THIS_MACHINE, Map.of()).name());
            assertEquals(321.5, MachineFiles.note(MachineFiles.THIS_MACHINE, "spsc_hop_ns"));
            assertTrue(Double.isNaN(MachineFiles.note(MachineFiles.THIS_MACHINE, "other")));
        } finally {
            if (before == null) {
                System.clearProperty("jhpvm.machines");
            } else {
                System.setProperty("jhpvm.machines", before);
            }
        }
    }
}
