package org.jhpvm.apps.commands;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Main;
import org.jhpvm.apps.bench.Targets;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bench check}'s judgement and table. That every bench reports the keys its targets name is checked where each
 * bench runs ({@code CommandLineTest}, {@code JobsCommandTest}).
 */
class BenchCheckTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aFigureShouldBeMetMissedOrAbsentByItsBound() {
        final ObjectNode fabric = MAPPER.createObjectNode().put("latency_ratio", 1.5).put("bw_ratio", 0.49);
        final ObjectNode dcs = MAPPER.createObjectNode().put("dcs_slowdown_max", 2.3).put("idle_job_core_fraction",
            0.02).put("idle_cpu_fraction_waiting", 0.01);
        final List<Targets.Verdict> v = Targets.judge(Map.of("fabric", fabric, "dcs", dcs));
        assertEquals(List.of("latency_ratio", "bw_ratio", "dcs_slowdown_max", "idle_cpu_fraction_waiting",
            "idle_job_core_fraction"), v.stream().map(x -> x.target().key()).toList(), "only the benches given");
        assertEquals("met", v.get(0).word(), "<= 1.5 holds at 1.5");
        assertEquals("MISSED", v.get(1).word(), ">= 0.5 fails at 0.49");
        assertEquals("met", v.get(2).word());
        assertEquals("met", v.get(3).word());
        assertEquals("MISSED", v.get(4).word(), "< 0.02 fails at 0.02");
        final List<Targets.Verdict> absent = Targets.judge(Map.of("fabric", MAPPER.createObjectNode()
            .put("latency_ratio", "fast")));
        assertEquals("absent", absent.get(0).word(), "not a number");
        assertFalse(absent.get(0).met());
        assertEquals("absent", absent.get(1).word(), "not reported");
    }

    @Test
    void theTableShouldShowEveryTargetWithItsValueAndVerdict() {
        final ObjectNode fabric = MAPPER.createObjectNode().put("latency_ratio", 4.333).put("bw_ratio", 0.66);
        final String table = BenchCheckCommand.table(Targets.judge(Map.of("fabric", fabric)));
        final List<String> lines = table.lines().toList();
        assertEquals(3, lines.size(), table);
        assertTrue(lines.get(1).matches("fabric +latency_ratio +<= 1\\.50 +4\\.33 +MISSED +fabric-emulator README"),
            lines.get(1));
        assertTrue(lines.get(2).matches("fabric +bw_ratio +>= 0\\.500 +0\\.660 +met +fabric-emulator README"),
            lines.get(2));
    }

    @Test
    void theCatalogueShouldNameEachFigureOnceUnderABenchItRuns() {
        final Set<String> seen = new HashSet<>();
        for (final Targets.Target t : Targets.ALL) {
            assertTrue(Targets.BENCHES.contains(t.bench()), t.toString());
            assertTrue(seen.add(t.bench() + "/" + t.key()), "twice: " + t);
        }
        for (final String b : Targets.BENCHES) {
            assertTrue(Targets.ALL.stream().anyMatch(t -> t.bench().equals(b)), b + " has no target");
        }
    }

    @Test
    void badOptionsShouldBeUsageErrorsBeforeAnyBenchRuns() {
        assertEquals(Main.USAGE, Main.execute("bench", "check", "--benches", "via"), "via has no targets");
        assertEquals(Main.USAGE, Main.execute("bench", "check", "--trials", "0"));
    }
}
