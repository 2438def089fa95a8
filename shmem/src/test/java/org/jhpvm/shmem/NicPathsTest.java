package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every way a remote operation can travel, on both of FM's NIC paths (the NIC's own handlers and RDMA, and FM's
 * messages to handlers in the target's extract) and with and without faults: messages that fit a frame, chunked
 * messages, RDMA of a whole contiguous range, RDMA per large block, gets the same ways, atomics, accumulates and put
 * with signal whose data goes by RDMA. Each PE checks what it received against what its writer must have sent.
 */
@Timeout(120)
class NicPathsTest {
    /** Element counts: nothing, one, odd, just under a frame, chunked, RDMA (64 KiB and 2.4 MB of longs). */
    private static final int[] COUNTS = {0, 1, 7, 900, 3000, 8192, 300_000};

    private static ShmemJob job(final boolean offload, final boolean lossy) {
        final ShmemJob.Builder b = ShmemJob.builder().pes(3).timeout(Duration.ofSeconds(90))
            .option("fm.nicOffload", "" + offload);
        if (lossy) {
            b.option("fabric.faults.seed", "16").option("fabric.faults.drop", "0.01")
                .option("fabric.faults.corrupt", "0.003").option("fabric.faults.duplicate", "0.003");
        }
        return b.build();
    }

    @ParameterizedTest(name = "offload={0} lossy={1}")
    @CsvSource({"true,false", "false,false", "true,true", "false,true"})
    void shouldDeliverPutsAndGetsOfEverySizeOnBothPaths(final boolean offload, final boolean lossy) {
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        job(offload, lossy).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            final int max = COUNTS[COUNTS.length - 1];
            final SymmetricLongs a = sh.mallocLongs(max + 1);
            for (final int count : COUNTS) {
                final long[] src = new long[count];
                for (int i = 0; i < count; i++) {
                    src[i] = ShmemTestSupport.value(me, right, i + count);
                }
                java.util.Arrays.fill(a.local(), -1);
                sh.barrierAll();
                a.put(right, 1, src, 0, count);
                sh.barrierAll();
                for (int i = 0; i < count; i++) {
                    if (a.local()[i + 1] != ShmemTestSupport.value(left, me, i + count)) {
                        failures.add("put " + count + ": PE " + me + " element " + i);
                        break;
                    }
                }
                if (a.local()[0] != -1 || count < max && a.local()[count + 1] != -1) {
                    failures.add("put " + count + " wrote outside its range on PE " + me);
                }
                final long[] back = new long[count + 2];
                back[0] = 5;
                back[count + 1] = 5;
                a.get(right, 1, back, 1, count);
                for (int i = 0; i < count; i++) {
                    if (back[i + 1] != ShmemTestSupport.value(me, right, i + count)) {
                        failures.add("get " + count + ": PE " + me + " element " + i);
                        break;
                    }
                }
                if (back[0] != 5 || back[count + 1] != 5) {
                    failures.add("get " + count + " wrote outside the destination range on PE " + me);
                }
                sh.barrierAll();
            }
        });
        assertEquals(List.of(), failures);
    }

    @ParameterizedTest(name = "offload={0} lossy={1}")
    @CsvSource({"true,false", "false,false", "true,true", "false,true"})
    void shouldMoveLargeBlocksAtomicsAccumulatesAndSignalsOnBothPaths(final boolean offload, final boolean lossy) {
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final int blocks = 5;
        final int block = 2048; // 16 KiB a block: one RDMA each
        final int stride = block + 3;
        job(offload, lossy).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            final SymmetricLongs grid = sh.mallocLongs(blocks * stride);
            final SymmetricLongs counter = sh.mallocLongs(1);
            final SymmetricDoubles sum = sh.mallocDoubles(4);
            final SymmetricLongs data = sh.mallocLongs(20_000);
            final SymmetricLongs sig = sh.mallocLongs(1);
            final long[] src = new long[blocks * block];
            for (int i = 0; i < src.length; i++) {
                src[i] = ShmemTestSupport.value(me, right, i);
            }
            sh.barrierAll();
            // Blocks of the source, back to back, into blocks of the target `stride` apart.
            grid.ibput(right, 0, stride, src, 0, block, block, blocks);
            for (int k = 0; k < 10; k++) {
                counter.atomicFetchAdd(0, 0, me + 1);
            }
            sum.acc(right, 0, new double[] {1, 2, 3, 4}, 0, 4, 0.5 * (me + 1));
            final long[] payload = new long[20_000];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = ShmemTestSupport.value(me, right, -i);
            }
            data.putSignal(right, 0, payload, 0, payload.length, sig, 0, 1, SignalOp.ADD);
            sig.signalWaitUntil(0, Cmp.EQ, 1);
            for (int i = 0; i < payload.length; i++) {
                if (data.local()[i] != ShmemTestSupport.value(left, me, -i)) {
                    failures.add("put_signal: PE " + me + " saw the signal before element " + i);
                    break;
                }
            }
            sh.barrierAll();
            for (int b = 0; b < blocks; b++) {
                for (int i = 0; i < block; i++) {
                    if (grid.local()[b * stride + i] != ShmemTestSupport.value(left, me, b * block + i)) {
                        failures.add("ibput: PE " + me + " block " + b + " element " + i);
                        break;
                    }
                }
                for (int i = block; i < stride && b * stride + i < grid.local().length; i++) {
                    if (grid.local()[b * stride + i] != 0) {
                        failures.add("ibput wrote a gap on PE " + me);
                    }
                }
            }
            final double f = 0.5 * (left + 1);
            assertArrayEquals(new double[] {f, 2 * f, 3 * f, 4 * f}, sum.local(), 0.0, "accumulate on PE " + me);
            if (me == 0) {
                assertEquals(10L * n * (n + 1) / 2, counter.local()[0], "fetch-adds from every PE");
            }
            final long[] blocksBack = new long[blocks * block];
            grid.ibget(right, 0, stride, blocksBack, 0, block, block, blocks);
            assertArrayEquals(src, blocksBack, "ibget of the blocks PE " + me + " wrote");
            sh.barrierAll();
        });
        assertEquals(List.of(), failures);
    }

    /**
     * A blocking put by RDMA returns with its source free (OpenSHMEM's rule): the caller overwrites the source at once,
     * and the target still receives what the source held at the put. On FM's message path the put does not wait for
     * the target's answer (its delivery is the barrier's), so a stream of them from more sources than the registration
     * cache holds (16) also checks that a source leaves the cache only after its writes are done.
     */
    @ParameterizedTest(name = "offload={0} lossy={1}")
    @CsvSource({"true,false", "false,false", "true,true", "false,true"})
    void shouldTakeALargePutsSourceBeforeItReturns(final boolean offload, final boolean lossy) {
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final int count = 8192; // 64 KiB: one RDMA write
        final int puts = 20;
        job(offload, lossy).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            final SymmetricLongs a = sh.mallocLongs(puts * count);
            final long[][] sources = new long[puts][count];
            sh.barrierAll();
            for (int p = 0; p < puts; p++) {
                final long[] src = sources[p];
                for (int i = 0; i < count; i++) {
                    src[i] = ShmemTestSupport.value(me, right, p * count + i);
                }
                a.put(right, p * count, src, 0, count);
                java.util.Arrays.fill(src, -7); // free once put returns
            }
            sh.barrierAll();
            for (int i = 0; i < puts * count; i++) {
                if (a.local()[i] != ShmemTestSupport.value(left, me, i)) {
                    failures.add("PE " + me + " element " + i + " is " + a.local()[i]);
                    break;
                }
            }
            sh.barrierAll();
        });
        assertEquals(List.of(), failures);
    }
}
