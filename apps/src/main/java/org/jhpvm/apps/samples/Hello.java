package org.jhpvm.apps.samples;

import java.time.Duration;

import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricInts;

/**
 * The smallest SHMEM program: every PE puts its number into its right neighbour's symmetric int, waits at a barrier,
 * and reports who wrote to it.
 */
public final class Hello {
    private Hello() {
    }

    /**
     * Runs the program in a job of {@code pes} PEs and collects what each PE says.
     *
     * @param pes number of PEs
     * @return one line per PE, in PE order; in a process of a launched job, null for the PEs other processes host
     */
    public static String[] run(final int pes) {
        final String[] lines = new String[pes];
        ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).build().run(sh -> lines[sh.myPe()] = hello(sh));
        return lines;
    }

    private static String hello(final Shmem sh) {
        final int me = sh.myPe();
        final int n = sh.nPes();
        final SymmetricInts from = sh.mallocInts(1);
        from.p((me + 1) % n, 0, me);      // a one-sided put into the neighbour's memory
        sh.barrierAll();                   // completes every put
        return "Hello from PE " + me + " of " + n + ": PE " + from.local()[0] + " wrote to me";
    }
}
