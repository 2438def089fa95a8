package org.jhpvm.fabric.aeron;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The doorbells of a host's processes: one per NIC of the job and one per process's control thread, in a file of the
 * host's job directory that every process of the host maps, each a futex word and a count of sleepers. A thread that
 * has nothing to do counts itself in, looks once more, and sleeps on its bell (up to a bound); a thread of any process
 * of the host that has just given it something (a frame in its stream, a control message) rings the bell, which costs
 * a fence and a load when nobody sleeps and a system call when someone does. So a waiting thread costs no CPU and
 * wakes within a system call's time, where it used to look every few milliseconds (nothing else wakes a thread across
 * processes).
 *
 * <p>The order that makes a ring never lost: the sleeper counts itself in (an atomic add), then looks for work, then
 * sleeps while the bell's word is the value it read before looking; the ringer publishes the work, fences, and rings
 * if it sees a sleeper, by changing the word and waking. Either the sleeper's look sees the work, or the ringer sees
 * the sleeper and the sleeper's wait returns at once or is woken.
 *
 * <p>A NIC's slot also counts the stores other threads of the host made into its host memory segments
 * ({@link #written}): a NIC's host that waits for such a store (a SHMEM {@code wait_until} on a segment) returns from
 * its sleep when the count has moved since it last returned for that reason, as at an RDMA write into its memory. The
 * count goes up unconditionally (an atomic add, which is also the fence), then the bell rings if someone sleeps; a
 * sleeper looks at the count after counting itself in: either it sees the store's count, or the storer sees it.
 *
 * <p>Only a sleeper that waits for stores (a NIC's host, {@link #enter}) is rung by them; one that waits for frames
 * alone (SHMEM's progress agent, a control thread: {@link #enterForRings}) is not: a store needs no serving, and a
 * stream of atomics into another process's segment rang its agent's bell at every one (a system call each: GUPS on
 * segments under {@code launch -n 2} spent 38% of its samples in {@code futex_wake}).
 *
 * <p>Slot i lies at {@code 64 i} (a cache line each): the word at +0, the sleepers at +4, the stores at +8, the
 * sleepers that wait for stores at +16. NIC n's bell is slot n; the control thread of process r rings at slot
 * {@code nicCount + r}.
 */
final class Doorbells {
    /** The system property that turns the doorbells off ({@code -Djhpvm.doorbells=false}): waiting threads look. */
    static final String ENABLED_PROPERTY = "jhpvm.doorbells";
    /** The file's name in the host's job directory. */
    static final String FILE = "doorbells";
    private static final long SLOT = 64;
    private static final VarHandle INT = JAVA_INT.varHandle();
    private static final VarHandle LONG = JAVA_LONG.varHandle();

    private final Arena arena;
    private final MemorySegment bells;
    /** Each slot's word, sliced once (a futex call takes the word's address). */
    private final MemorySegment[] words;

    private Doorbells(final Arena arena, final MemorySegment bells, final int slots) {
        this.arena = arena;
        this.bells = bells;
        this.words = new MemorySegment[slots];
        for (int i = 0; i < slots; i++) {
            words[i] = bells.asSlice(i * SLOT, 4);
        }
    }

    /**
     * Maps the host's doorbells, making the file if this process is the first (a file of zeros: every word 0, nobody
     * asleep). Every process of the host asks for the same number of slots.
     *
     * @param dir   the host's job directory
     * @param slots NICs of the job plus its processes
     * @return the doorbells, or null if futexes are not available here ({@link Futex#AVAILABLE}) or the doorbells are
     *     turned off ({@link #ENABLED_PROPERTY})
     * @throws IllegalStateException if the file cannot be made or mapped
     */
    static Doorbells open(final Path dir, final int slots) {
        if (!Futex.AVAILABLE || !Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "true"))) {
            return null;
        }
        final long bytes = SLOT * slots;
        // Unmapped when the fabric is gone and collected: a thread asleep on a bell holds the mapping in its call,
        // so that closing an arena of its own at the fabric's close would fail.
        final Arena arena = Arena.ofAuto();
        try (FileChannel ch = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
            if (ch.size() < bytes) {
                ch.write(ByteBuffer.allocate(1), bytes - 1); // a zero at the end: the file grows, zeroed
            }
            return new Doorbells(arena, ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena), slots);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot map the doorbells in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** @return the number of slots */
    int slots() {
        return words.length;
    }

    /**
     * Counts the caller in as a sleeper on {@code slot} and returns the bell's word, to be passed to {@link #sleep}
     * after the caller's last look for work. Every {@code enter} is followed by one {@link #leave}.
     *
     * @param slot the bell
     * @return the word's value now
     */
    int enter(final int slot) {
        // Before the caller looks at the stores: a storer sees this count, or the caller sees the store.
        INT.getAndAdd(bells, slot * SLOT + 16, 1);
        return enterForRings(slot);
    }

    /**
     * {@link #enter}, for a sleeper that waits for rings only: stores into the NIC's memory ({@link #written}) do not
     * wake it. Followed by one {@link #leaveForRings}.
     *
     * @param slot the bell
     * @return the word's value now
     */
    int enterForRings(final int slot) {
        final long at = slot * SLOT;
        INT.getAndAdd(bells, at + 4, 1);
        return (int) INT.getVolatile(bells, at);
    }

    /**
     * Sleeps on {@code slot} while its word is {@code word} (nobody rang since {@link #enter}), at most
     * {@code timeoutNs}.
     *
     * @param slot      the bell
     * @param word      what {@link #enter} returned
     * @param timeoutNs the longest sleep, positive
     * @param timespec  16 bytes of the calling thread's own
     */
    void sleep(final int slot, final int word, final long timeoutNs, final MemorySegment timespec) {
        Futex.await(words[slot], word, timeoutNs, timespec);
    }

    /**
     * The word of {@code slot} now: it changes at every ring that found a sleeper.
     *
     * @param slot the bell
     * @return its word
     */
    int word(final int slot) {
        return (int) INT.getVolatile(bells, slot * SLOT);
    }

    /**
     * The threads counted in on {@code slot} now (asleep, or about to be).
     *
     * @param slot the bell
     * @return its sleepers
     */
    int sleepers(final int slot) {
        return (int) INT.getVolatile(bells, slot * SLOT + 4);
    }

    /**
     * Counts the caller out as a sleeper on {@code slot}.
     *
     * @param slot the bell
     */
    void leave(final int slot) {
        INT.getAndAdd(bells, slot * SLOT + 16, -1);
        leaveForRings(slot);
    }

    /**
     * Counts out a sleeper that counted in with {@link #enterForRings}.
     *
     * @param slot the bell
     */
    void leaveForRings(final int slot) {
        INT.getAndAdd(bells, slot * SLOT + 4, -1);
    }

    /**
     * Rings {@code slot} if someone sleeps on it: call after the work for it is published.
     *
     * @param slot the bell
     */
    void ring(final int slot) {
        VarHandle.fullFence();
        wakeSleepers(slot);
    }

    /** Changes the bell's word and wakes its sleepers if there are any; the caller has fenced after the work. */
    private void wakeSleepers(final int slot) {
        wakeIfCounted(slot, slot * SLOT + 4);
    }

    /** Wakes the bell's sleepers if the count at {@code countAt} says some sleep. */
    private void wakeIfCounted(final int slot, final long countAt) {
        if ((int) INT.getVolatile(bells, countAt) > 0) {
            INT.getAndAdd(bells, slot * SLOT, 1);
            Futex.wakeAll(words[slot]);
        }
    }

    /**
     * Counts a store into the host memory of NIC {@code slot} and rings its bell if someone that waits for stores
     * sleeps on it ({@link #enter}, not {@link #enterForRings}): call after the stores are made.
     *
     * @param slot the NIC's bell
     */
    void written(final int slot) {
        LONG.getAndAdd(bells, slot * SLOT + 8, 1L); // a full fence: the stores before it, the sleepers' look after
        wakeIfCounted(slot, slot * SLOT + 16); // only those that wait for stores
    }

    /**
     * The stores counted into the host memory of NIC {@code slot} so far ({@link #written}): changes are what matter.
     *
     * @param slot the NIC's bell
     * @return the count
     */
    long stores(final int slot) {
        return (long) LONG.getVolatile(bells, slot * SLOT + 8);
    }

    /** @return a thread's 16 bytes for {@link #sleep}'s timeout, freed with the doorbells */
    MemorySegment timespec() {
        return arena.allocate(16, 8);
    }

    /** Rings every bell of this process's sleepers, whoever they are (the fabric is closing: they look and see it). */
    void ringAll() {
        for (int i = 0; i < words.length; i++) {
            ring(i);
        }
    }
}
