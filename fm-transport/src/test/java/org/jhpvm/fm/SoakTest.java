package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The long run ({@code mvn -B verify -Psoak}): 10^8 messages (override with {@code -Djhpvm.soak.fmMessages=N})
 * all-to-all among 8 PEs over a lossy fabric, none lost, duplicated, altered or out of order. Prints its time.
 */
@Tag("soak")
@Timeout(value = 6, unit = TimeUnit.HOURS)
class SoakTest {
    private static final int PES = 8;
    private static final long MESSAGES = Long.getLong("jhpvm.soak.fmMessages", 100_000_000L);
    private static final int H = 1;

    @Test
    void shouldLoseNothingInAHundredMillionMessagesUnderDropsCorruptionAndDuplicates() {
        final FaultPlan plan = FaultPlan.builder(2026).drop(0.01).corrupt(0.001).duplicate(0.001).build();
        final int perPair = (int) (MESSAGES / (PES * PES));
        final long[][] next = new long[PES][PES];
        final long[] outOfOrder = new long[PES];
        final long t0 = System.nanoTime();
        final FmJob.Report report = FmJob.builder().fabric(FabricConfig.builder(PES).faultPlan(plan).build())
            .timeout(Duration.ofHours(5)).build().run(fm -> {
                final int me = fm.pe();
                fm.register(H, (Fm1Handler) (sender, b, o, l) -> {
                    final long seq = (long) FastMessages.word(b, o, 0) << 32 | FastMessages.word(b, o, 1) & 0xFFFFFFFFL;
                    if (seq != next[me][sender] || FastMessages.word(b, o, 2) != sender
                        || FastMessages.word(b, o, 3) != me) {
                        outOfOrder[me]++;
                    }
                    next[me][sender] = seq + 1;
                });
                for (int i = 0; i < perPair; i++) {
                    for (int k = 1; k <= PES; k++) {
                        final int d = (me + k) % PES;
                        fm.send4(d, H, 0, i, me, d);
                    }
                    fm.extract(4096);
                }
                assertTrue(fm.extractUntil(() -> {
                    for (int s = 0; s < PES; s++) {
                        if (next[me][s] != perPair) {
                            return false;
                        }
                    }
                    return true;
                }, 3_000_000_000_000L));
            });
        final FmCounters t = report.totals();
        System.out.printf("soak: %d messages among %d PEs in %.1f s; fabric %s; FM %s%n", (long) perPair * PES * PES,
            PES, (System.nanoTime() - t0) / 1e9, report.fabricTotals(), t);
        for (int pe = 0; pe < PES; pe++) {
            assertEquals(0, outOfOrder[pe], "PE " + pe + " saw messages out of order or altered");
        }
        assertEquals((long) perPair * PES * PES, t.messagesHandled(), "every message handled exactly once");
        assertTrue(t.framesRetransmitted() > 0 && t.checksumRejects() > 0 && t.duplicateRejects() > 0, t.toString());
    }
}
