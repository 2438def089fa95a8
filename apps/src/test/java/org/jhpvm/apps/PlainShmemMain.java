package org.jhpvm.apps;

import org.jhpvm.shmem.ShmemJob;

/** A user's main class that runs a SHMEM job itself and returns (for {@code launch -- CLASS}). */
public final class PlainShmemMain {
    private PlainShmemMain() {
    }

    /**
     * Runs a 2-PE job: each PE stores into the other's segment, then each prints what it found.
     *
     * @param args unused
     */
    public static void main(final String[] args) {
        ShmemJob.builder().pes(2).build().run(sh -> {
            final var s = sh.mallocSegment(8);
            s.putLong(1 - sh.myPe(), 0, 10 + sh.myPe());
            sh.barrierAll();
            System.out.println("plain main: PE " + sh.myPe() + " got " + s.getLong(sh.myPe(), 0));
        });
    }
}
