package org.jhpvm.fm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jhpvm.fm.FmHostMemory;
import org.junit.jupiter.api.Test;

/**
 * The rings of {@link StagedTransfers} on a host memory that records what is made, mapped and removed: a piece goes
 * through a slot exactly; a PE leaving removes the rings whose slots are all free and keeps one with a piece still in
 * it (its consumer may yet copy it out); mappings are given back; which transfers go through a ring at all; and a
 * host with no room for a ring leaves them in frames.
 */
class StagedTransfersTest {
    /** Segments by (owner, name), shared by the PEs of the test as by the processes of a host. */
    private static final class Host {
        final Map<Long, MemorySegment> segments = new HashMap<>();
        final List<String> log = new ArrayList<>();
        final Arena arena = Arena.ofAuto();
        /** A host whose /dev/shm is full: create throws as the fabrics do. */
        boolean full;

        FmHostMemory of(final int pe, final int pes) {
            return new FmHostMemory() {
                @Override
                public boolean reaches(final int other) {
                    return other >= 0 && other < pes && other != 2; // PE 2 is on another host
                }

                @Override
                public MemorySegment create(final int name, final long bytes) {
                    log.add("create " + pe + " " + name);
                    if (full) {
                        throw new IllegalStateException("host memory: " + bytes + " bytes wanted, 0 free");
                    }
                    final MemorySegment s = arena.allocate(bytes, 64);
                    segments.put((long) pe << 32 | (name & 0xFFFF_FFFFL), s);
                    return s;
                }

                @Override
                public MemorySegment map(final int owner, final int name) {
                    log.add("map " + owner + " " + name + " by " + pe);
                    return segments.get((long) owner << 32 | (name & 0xFFFF_FFFFL));
                }

                @Override
                public void unmap(final int owner, final int name) {
                    log.add("unmap " + owner + " " + name + " by " + pe);
                }

                @Override
                public void remove(final int name) {
                    log.add("remove " + pe + " " + name);
                }
            };
        }
    }

    @Test
    void piecesShouldPassExactlyAndLeavingShouldRemoveOnlyIdleRings() {
        final Host host = new Host();
        final StagedTransfers pe0 = new StagedTransfers(host.of(0, 4), 0, 4, 1, null);
        final StagedTransfers pe1 = new StagedTransfers(host.of(1, 4), 1, 4, 1, null);
        final StagedTransfers pe3 = new StagedTransfers(host.of(3, 4), 3, 4, 1, null);
        final MemorySegment src = MemorySegment.ofArray(new long[1000]);
        for (int i = 0; i < 1000; i++) {
            src.setAtIndex(ValueLayout.JAVA_LONG, i, i * 31L + 7);
        }
        final int to1 = pe0.stage(1, src, 8, 800);
        final int to3 = pe0.stage(3, src, 0, 8000);
        final int name1 = pe0.ringName(1);
        final int name3 = pe0.ringName(3);
        assertTrue(name1 < 0 && name3 < 0 && name1 != name3, "ring names " + name1 + ", " + name3);
        final MemorySegment dst = MemorySegment.ofArray(new long[102]);
        pe1.unstage(0, name1, to1, dst, 8, 800);
        assertEquals(0, dst.getAtIndex(ValueLayout.JAVA_LONG, 0), "before the piece");
        for (int i = 0; i < 100; i++) {
            assertEquals((i + 1) * 31L + 7, dst.getAtIndex(ValueLayout.JAVA_LONG, 1 + i), "long " + i);
        }
        assertEquals(0, dst.getAtIndex(ValueLayout.JAVA_LONG, 101), "after the piece");
        // A second piece to PE 1 takes the next slot; once PE 1 has freed it too, that ring is idle again.
        final int again = pe0.stage(1, src, 0, 8);
        assertTrue(again != to1, "the next slot, not the one just freed");
        pe1.unstage(0, name1, again, null, 0, 8);

        pe0.close(); // the ring to PE 3 still holds a piece: it stays for the fabric to remove
        assertTrue(host.log.contains("remove 0 " + name1), host.log.toString());
        assertFalse(host.log.contains("remove 0 " + name3), host.log.toString());
        pe1.close();
        assertTrue(host.log.contains("unmap 0 " + name1 + " by 1"), host.log.toString());
        assertEquals(1, host.log.stream().filter(s -> s.startsWith("map 0 " + name1)).count(),
            "PE 1 maps the ring once: " + host.log);
        assertTrue(to3 >= 0 && to3 < StagedTransfers.SLOTS, "slot " + to3);
    }

    @Test
    void onlyLargeTransfersToOtherPesOfTheHostShouldGoThroughARing() {
        final StagedTransfers pe0 = new StagedTransfers(new Host().of(0, 4), 0, 4, 16 << 10, null);
        assertTrue(pe0.applies(1, 16 << 10));
        assertFalse(pe0.applies(1, (16 << 10) - 1), "below the threshold");
        assertFalse(pe0.applies(0, 1 << 20), "to itself");
        assertFalse(pe0.applies(2, 1 << 20), "to another host");
    }

    @Test
    void aHostWithNoRoomForARingShouldLeaveTheTransfersInFrames() {
        final Host host = new Host();
        host.full = true;
        final StagedTransfers pe0 = new StagedTransfers(host.of(0, 4), 0, 4, 1, null);
        assertFalse(pe0.applies(1, 1 << 20), "no ring: frames");
        assertFalse(pe0.applies(1, 1 << 20), "and frames from then on");
        assertEquals(1, host.log.stream().filter(s -> s.startsWith("create")).count(), "one try: " + host.log);
        host.full = false;
        assertTrue(pe0.applies(3, 1 << 20), "another consumer gets its ring");
    }

    @Test
    void aPieceNamingNoSlotShouldBeRefused() {
        final Host host = new Host();
        final StagedTransfers pe0 = new StagedTransfers(host.of(0, 2), 0, 2, 1, null);
        final StagedTransfers pe1 = new StagedTransfers(host.of(1, 2), 1, 2, 1, null);
        pe0.stage(1, MemorySegment.ofArray(new byte[8]), 0, 8);
        final int name = pe0.ringName(1);
        final MemorySegment dst = MemorySegment.ofArray(new byte[8]);
        assertThrows(IllegalStateException.class, () -> pe1.unstage(0, name, StagedTransfers.SLOTS, dst, 0, 8));
        assertThrows(IllegalStateException.class, () -> pe1.unstage(0, name, -1, dst, 0, 8));
        assertThrows(IllegalStateException.class,
            () -> pe1.unstage(0, name, 0, dst, 0, StagedTransfers.PIECE_BYTES + 1));
    }
}
