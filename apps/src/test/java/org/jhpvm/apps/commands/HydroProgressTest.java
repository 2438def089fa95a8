package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** {@code hydro}'s progress without a terminal and its warning of a long run, on a clock the test drives. */
class HydroProgressTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final long[] now = {0};

    private HydroProgress progress(final double t0, final long cycle0) {
        return new HydroProgress("sedov", t0, 1.0, cycle0, 128, 2, false,
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
            () -> now[0]);
    }

    private List<String> lines(final ByteArrayOutputStream b) {
        return b.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void withoutATerminalShouldPrintTheCycleTimeAndPercentAtMostEveryFiveSeconds() {
        final HydroProgress p = progress(0, 0);
        // 1000 cycles of 0.001, 12 ms each: 12 s in all, so lines at 5 s and 10 s, none before.
        for (int c = 1; c <= 1000; c++) {
            now[0] += 12_000_000L;
            p.accept(c * 0.001);
        }
        assertEquals(List.of("hydro sedov: cycle 417, t = 0.417000 (41.7%)",
            "hydro sedov: cycle 834, t = 0.834000 (83.4%)"), lines(out));
        // 3 s in it had done 250 cycles of 1000: 12 s in all, not worth a warning.
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertEquals(1000, p.cycle());
    }

    @Test
    void aRestartedRunShouldCountOnFromItsCycle() {
        final HydroProgress p = progress(0.5, 7000);
        now[0] += HydroProgress.LINE_NS;
        p.accept(0.6);
        assertEquals(List.of("hydro sedov: cycle 7001, t = 0.600000 (60.0%)"), lines(out));
    }

    @Test
    void aRunThatWouldTakeOverAMinuteShouldBeWarnedAboutWithinItsFirstSeconds() {
        final HydroProgress p = progress(0, 0);
        // Steps of 1e-5, 1 ms each: after 3 s, 3000 cycles, t = 0.03, 97 000 left at that step: 100 s in all.
        for (int c = 1; c <= 3500; c++) {
            now[0] += 1_000_000L;
            p.accept(c * 1e-5);
        }
        final List<String> warning = lines(err);
        assertEquals(1, warning.size(), "once: " + warning);
        assertTrue(warning.get(0).startsWith("jhpvm: warning: hydro sedov: about 100,000 cycles to t = 1.000 at the time "
            + "step now (dt = 1.00e-05, the Courant condition's), about 100 s at this rate; halving --zones (now 128) "
            + "cuts the work by 8 or more"), warning.get(0));
        assertEquals(List.of(), lines(out), "no line before 5 s");
    }

    @Test
    void durationsShouldReadAsPeopleSayThem() {
        assertEquals("75 s", HydroProgress.duration(75));
        assertEquals("14 min", HydroProgress.duration(14 * 60 + 10));
        assertEquals("2.5 h", HydroProgress.duration(9000));
    }
}
