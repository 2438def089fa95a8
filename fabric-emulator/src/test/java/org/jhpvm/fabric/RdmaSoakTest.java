package org.jhpvm.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The long run of the emulated NIC ({@code mvn -B verify -Psoak}): 10^7 RDMA operations (override with
 * {@code -Djhpvm.soak.rdmaOps=N}) under drops, corruption, duplication and reordering of segments: writes of fresh
 * bytes, reads back, and NIC messages whose handler counts them. Every write lands intact (checked against a model
 * of the target's memory after each write, and whole at the end), every read returns the model's bytes, and every
 * NIC message's handler runs exactly once and in order; the faults really happened. Prints its time.
 */
@Tag("soak")
@Timeout(value = 2, unit = TimeUnit.HOURS)
class RdmaSoakTest {
    private static final int BYTES = 1 << 16;
    private static final int MAX_LENGTH = 2048;

    @Test
    void shouldMoveEveryByteOnceAndRunEveryHandlerOnceUnderFaults() {
        final long ops = Long.getLong("jhpvm.soak.rdmaOps", 10_000_000L);
        final long seed = Long.getLong("jhpvm.test.seed", 2026L);
        System.out.println("RdmaSoakTest seed " + seed + " (replay: -Djhpvm.test.seed=" + seed + ")");
        final FaultPlan plan = FaultPlan.builder(seed).drop(0.01).corrupt(0.001).duplicate(0.001).reorder(0.001)
            .build();
        final long t0 = System.nanoTime();
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).frameBytes(4096).rdmaSegmentBytes(256)
            .faultPlan(plan).build())) {
            final Nic nic = fabric.nic(0);
            final SplittableRandom random = new SplittableRandom(seed);
            final byte[] src = new byte[BYTES];
            final byte[] dst = new byte[BYTES];
            final byte[] model = new byte[BYTES];
            final byte[] back = new byte[BYTES];
            final long[] counter = new long[2];
            final long[] reply = new long[1];
            final MemoryRegion local = nic.register(src);
            final MemoryRegion readInto = nic.register(back);
            final MemoryRegion replyTo = nic.register(reply);
            final MemoryRegion remote = fabric.nic(1).register(dst);
            fabric.nic(1).register(counter, 0, 1);
            fabric.nic(1).registerNicHandler(1, m -> {
                final long[] c = (long[]) m.region(0, 1).memory();
                final long sequence = m.frame().getPayloadLong(0);
                if (sequence != c[0]) {
                    c[1]++; // out of order, repeated or skipped
                }
                c[0] = sequence + 1;
                m.replyLong(c[0]);
            });
            final WorkDescriptor d = new WorkDescriptor();
            final Completion c = new Completion();
            long writes = 0;
            long reads = 0;
            long messages = 0;
            for (long i = 0; i < ops; i++) {
                final int kind = (int) (i % 4);
                final int length = 1 + random.nextInt(MAX_LENGTH);
                final int offset = random.nextInt(BYTES - length + 1);
                if (kind <= 1) {
                    // fresh bytes: a stale or repeated segment would leave old ones
                    for (int k = 0; k < length; k += 64) {
                        src[offset + k] = (byte) (i + k);
                    }
                    src[offset + length - 1] = (byte) (i >>> 8);
                    System.arraycopy(src, offset, model, offset, length);
                    post(nic, d.rdmaWrite(local, offset, 1, remote.handle(), remote.key(), offset, length, i), c, i);
                    assertTrue(Arrays.equals(dst, offset, offset + length, model, offset, offset + length),
                        "write " + i + " of " + length + " bytes at " + offset);
                    writes++;
                } else if (kind == 2) {
                    post(nic, d.rdmaRead(readInto, offset, 1, remote.handle(), remote.key(), offset, length, i), c, i);
                    assertTrue(Arrays.equals(back, offset, offset + length, model, offset, offset + length),
                        "read " + i + " of " + length + " bytes at " + offset);
                    reads++;
                } else {
                    final Frame f = nic.acquire();
                    f.setDestination(1).setLength(8);
                    f.putPayloadLong(0, messages);
                    post(nic, d.nicMessage(f, 1, replyTo, 0, 8, i), c, i);
                    messages++;
                    assertEquals(messages, reply[0], "reply of NIC message " + (messages - 1));
                }
            }
            final RdmaCounters counters = nic.rdmaCounters();
            System.out.printf("rdma soak: %d operations (%d writes, %d reads, %d NIC messages) in %.1f s; %s%n", ops,
                writes, reads, messages, (System.nanoTime() - t0) / 1e9, counters);
            assertArrayEquals(model, dst, "the target's memory at the end");
            assertEquals(messages, counter[0], "every NIC message handled once");
            assertEquals(0, counter[1], "NIC messages handled out of order, twice or skipped");
            assertEquals(writes, counters.rdmaWrites());
            assertEquals(reads, counters.rdmaReads());
            assertEquals(messages, counters.nicMessagesSent());
            assertEquals(0, counters.errors(), counters.toString());
            assertTrue(counters.segmentsLost() > 0 && counters.segmentsCorrupted() > 0
                && counters.segmentsDuplicated() > 0, "the plan really hit segments: " + counters);
            assertEquals(counters.segmentsLost() + counters.segmentsCorrupted(), counters.retransmissions(),
                "every lost or damaged segment was sent again: " + counters);
        }
    }

    private static void post(final Nic nic, final WorkDescriptor d, final Completion c, final long op) {
        assertTrue(nic.post(d), "posted");
        assertTrue(nic.completionQueue().await(c, TimeUnit.SECONDS.toNanos(10)), "completion of operation " + op);
        assertTrue(c.ok(), "operation " + op + ": " + c);
        assertEquals(op, c.context());
    }
}
