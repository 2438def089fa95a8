package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemCtx;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.ShmemTeam;
import org.jhpvm.shmem.SymmetricLongs;
import org.jhpvm.shmem.ThreadLevel;

/**
 * Thread level MULTIPLE against a model: a random number of threads per PE each run a random mix of put, p, get, g,
 * atomic add and fetch-add, some inside the scope of a context made from a reversed team (their PE numbers are that
 * team's ranks) and some on the default context. Each thread writes only its own region of every PE's array, so the
 * final state has one answer; every read is checked as it happens, every array after the closing barrier, and the
 * shared counter against the sum of every thread's adds. jqwik prints the seed of a failing case; {@code
 * @Property(seed = ...)} replays the program (the threads' interleaving is the machine's).
 */
class ShmemThreadProperties {
    private static final int REGION = 16;

    @Property(tries = 20)
    void concurrentThreadsAgreeWithAPerThreadModel(@ForAll @IntRange(min = 2, max = 4) final int pes,
        @ForAll @IntRange(min = 1, max = 4) final int threads, @ForAll final long programSeed) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final int writers = pes * threads;
        final long[][][] model = new long[pes][writers][REGION]; // [world target][writer][element]
        final AtomicLong adds = new AtomicLong();
        ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90)).threadLevel(ThreadLevel.MULTIPLE).build()
            .run(sh -> {
                final ShmemTeam reversed = sh.teamWorld().splitStrided(pes - 1, -1, pes);
                final SymmetricLongs a = sh.mallocLongs(writers * REGION);
                final SymmetricLongs counter = sh.mallocLongs(1);
                sh.barrierAll();
                final List<Thread> started = new ArrayList<>();
                final CountDownLatch go = new CountDownLatch(1);
                for (int t = 0; t < threads; t++) {
                    final int writer = sh.myPe() * threads + t;
                    final Thread th = new Thread(() -> {
                        try {
                            go.await(); // the threads start together, so their calls overlap
                            program(sh, reversed, a, counter, writer, model, adds, programSeed, failures);
                        } catch (RuntimeException | AssertionError | InterruptedException e) {
                            failures.add("writer " + writer + ": " + e);
                        }
                    });
                    th.start();
                    started.add(th);
                }
                go.countDown();
                for (final Thread th : started) {
                    try {
                        th.join(60_000);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    if (th.isAlive()) {
                        failures.add("a thread of PE " + sh.myPe() + " did not finish in 60 s");
                    }
                }
                sh.barrierAll();
                for (int w = 0; w < writers; w++) {
                    final long[] got = Arrays.copyOfRange(a.local(), w * REGION, (w + 1) * REGION);
                    if (!Arrays.equals(got, model[sh.myPe()][w])) {
                        failures.add("PE " + sh.myPe() + ": region of writer " + w + " is " + Arrays.toString(got)
                            + ", the model " + Arrays.toString(model[sh.myPe()][w]));
                    }
                }
                sh.barrierAll();
                if (sh.myPe() == 0 && counter.local()[0] != adds.get()) {
                    failures.add("counter " + counter.local()[0] + ", the adds sum to " + adds.get());
                }
                sh.barrierAll();
                reversed.destroy();
            });
        assertTrue(failures.isEmpty(), failures.toString());
    }

    /** One thread's random program; its region of {@code model} is its alone. */
    private static void program(final Shmem sh, final ShmemTeam reversed, final SymmetricLongs a,
        final SymmetricLongs counter, final int writer, final long[][][] model, final AtomicLong adds,
        final long seed, final ConcurrentLinkedQueue<String> failures) {
        final int pes = sh.nPes();
        final Random rnd = new Random(seed * 131 + writer);
        final boolean team = rnd.nextBoolean();
        final ShmemCtx ctx = team ? reversed.createCtx(0) : null;
        final ShmemCtx scope = team ? ctx.use() : null;
        try {
            final int ops = 100 + rnd.nextInt(300);
            for (int k = 0; k < ops; k++) {
                final int world = rnd.nextInt(pes);
                final int target = team ? pes - 1 - world : world;
                final long[] mine = model[world][writer];
                final int off = rnd.nextInt(REGION);
                final int len = 1 + rnd.nextInt(REGION - off);
                final int base = writer * REGION;
                switch (rnd.nextInt(6)) {
                    case 0 -> {
                        final long[] src = rnd.longs(len).toArray();
                        a.put(target, base + off, src, 0, len);
                        System.arraycopy(src, 0, mine, off, len);
                    }
                    case 1 -> {
                        final long v = rnd.nextLong();
                        a.p(target, base + off, v);
                        mine[off] = v;
                    }
                    case 2 -> {
                        final long[] got = new long[len];
                        a.get(target, base + off, got, 0, len);
                        if (!Arrays.equals(got, Arrays.copyOfRange(mine, off, off + len))) {
                            failures.add("writer " + writer + " op " + k + ": get from PE " + world + " disagrees");
                        }
                    }
                    case 3 -> {
                        final long got = a.g(target, base + off);
                        if (got != mine[off]) {
                            failures.add("writer " + writer + " op " + k + ": g from PE " + world + " read " + got
                                + ", the model " + mine[off]);
                        }
                    }
                    case 4 -> {
                        final long v = 1 + rnd.nextInt(100);
                        counter.atomicAdd(team ? pes - 1 : 0, 0, v);
                        adds.addAndGet(v);
                    }
                    default -> {
                        final long v = 1 + rnd.nextInt(100);
                        final long old = counter.atomicFetchAdd(team ? pes - 1 : 0, 0, v);
                        adds.addAndGet(v);
                        if (old < 0) {
                            failures.add("writer " + writer + ": fetch-add returned " + old);
                        }
                    }
                }
            }
            if (scope != null) {
                scope.quiet();
            }
        } finally {
            if (scope != null) {
                scope.close();
                ctx.destroy();
            }
        }
    }
}
