package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmJob;
import org.jhpvm.fm.FmOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * FM's data path allocates nothing: sends, extract, inline handlers, acknowledgements, checksums and retransmission
 * (a PE sending to itself, so that one thread does all of it and its allocation counter sees all of it).
 */
@Timeout(120)
class FmAllocationTest {
    private static final int MESSAGES = 50_000;
    private static final int H = 1;

    @Test
    void sendExtractAndInlineHandlersShouldNotAllocate() {
        assertNoAllocation(FaultPlan.none(), 40_000);
    }

    /**
     * Single-frame messages here: with losses a multi-frame message may have to wait for a retransmitted frame,
     * and a handler that waits runs on a virtual thread, which is allocated (the slow path, see the README).
     */
    @Test
    void theReliabilityPathShouldNotAllocateEither() {
        assertNoAllocation(FaultPlan.builder(5).drop(0.02).corrupt(0.02).duplicate(0.02).build(), 16_000);
    }

    private static void assertNoAllocation(final FaultPlan plan, final int largeBytes) {
        final long[] result = new long[2];
        // A short retransmission timeout: the faults' recovery is the path measured, and at the default 1 ms the
        // test spent most of its 4 s waiting for timeouts.
        FmJob.builder().fabric(FabricConfig.builder(1).faultPlan(plan).build()).timeout(Duration.ofSeconds(100))
            .option("fm.rtoMinNs", "100000").build().run(fm -> {
                final byte[] in = new byte[largeBytes];
                final byte[] out = new byte[largeBytes];
                final long[] handled = new long[1];
                fm.register(H, (FmHandler) (stream, sender) -> {
                    stream.receive(in, 0, stream.declaredLength());
                    handled[0]++;
                });
                exchange(fm, out, handled, MESSAGES);
                final long before = ThreadAllocation.bytes();
                exchange(fm, out, handled, MESSAGES);
                result[0] = ThreadAllocation.bytes() - before;
                result[1] = handled[0];
            });
        assertEquals(2L * MESSAGES, result[1]);
        // Slack for the measuring itself; one object per message would be megabytes.
        assertTrue(result[0] < 16_384, result[0] + " bytes allocated for " + MESSAGES + " messages");
    }

    /** Messages of 8 bytes and of out.length bytes alternately, each extracted before the next is sent. */
    private static void exchange(final FastMessages fm, final byte[] out, final long[] handled, final int n) {
        final long target = handled[0] + n;
        for (int i = 0; i < n; i++) {
            final int size = (i & 1) == 0 ? 8 : out.length;
            final FmOutputStream o = fm.beginMessage(0, size, H);
            o.sendPiece(out, 0, size);
            o.endMessage();
            final long want = handled[0] + 1;
            while (handled[0] < want) {
                fm.extract(Integer.MAX_VALUE);
            }
        }
        if (handled[0] != target) {
            throw new IllegalStateException("handled " + handled[0] + " of " + target);
        }
    }
}
