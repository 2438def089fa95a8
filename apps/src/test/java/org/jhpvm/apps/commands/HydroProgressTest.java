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
        // 10 s in it had done 834 cycles of 1000, 417 in the last 5 s: 12 s in all, not worth a warning.
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
        // The first 5 s slow (the JIT compiling: 4 ms a cycle), then steps of 1e-5 at 1 ms each: 10 s in, 6250 cycles,
        // 5000 in the last 5 s, t = 0.0625, 93 750 left at that step: at the last 5 s's rate (the faster), 104 s in
        // all.
        for (int c = 1; c <= 8000; c++) {
            now[0] += c <= 1250 ? 4_000_000L : 1_000_000L;
            p.accept(c * 1e-5);
        }
        final List<String> warning = lines(err);
        assertEquals(1, warning.size(), "once: " + warning);
        assertTrue(warning.get(0).startsWith("jhpvm: warning: hydro sedov: about 100,000 cycles to t = 1.000 at the "
            + "time step now (dt = 1.00e-05, the Courant condition's), about 104 s in all at the rate so far; "
            + "halving --zones (now 128) cuts the work by 8 or more"), warning.get(0));
        assertEquals(2, lines(out).size(), "a line at 5 s and at 10 s: " + lines(out));
    }

    @Test
    void aRunStalledForAWhileShouldNotBeTakenForALongOne() {
        final HydroProgress p = progress(0, 0);
        // 1 ms cycles of 1e-4 for 5 s, then a stall: the machine busy, 10 cycles in the next 5 s. At the stall's rate
        // the 4990 cycles left would take 41 min; at the rate since the start, 10 s more: 20 s in all.
        for (int c = 1; c <= 5010; c++) {
            now[0] += c <= 5000 ? 1_000_000L : 500_000_000L;
            p.accept(c * 1e-4);
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void durationsShouldReadAsPeopleSayThem() {
        assertEquals("75 s", HydroProgress.duration(75));
        assertEquals("14 min", HydroProgress.duration(14 * 60 + 10));
        assertEquals("2.5 h", HydroProgress.duration(9000));
    }
}
