package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.jhpvm.shmem.ShmemCtx;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.ShmemTeam;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Global Arrays' operations stay on SHMEM's default context whatever context their caller has in use: with a
 * team's context in use, GA's world PE numbers would be read as team ranks (a put landed on the next PE), and its
 * puts would be left out of the quiet of GA's sync. Found with a program that put into PE 2's element with a
 * context of the team of PEs 1..3 in use: the value arrived at PE 3's.
 */
@Timeout(120)
class ShmemContextTest {
    @Test
    void sectionsElementsAndGhostsUnderATeamContextShouldReachTheRightPes() {
        ShmemJob.builder().pes(4).timeout(Duration.ofSeconds(90)).build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            final GlobalArray a = ga.builder(GaType.DOUBLE, 40).name("a").create(); // 10 elements a PE
            final GlobalArray c = ga.builder(GaType.LONG, 4).name("c").create(); // one counter a PE
            // Ghosts pushed by puts (as between JVMs), not pulled by loads, which no context changes.
            final GlobalArray g = ga.builder(GaType.DOUBLE, 40).ghosts(1).name("g").create();
            g.ghostsDirect(false);
            a.zero();
            c.zero();
            final double[] index = new double[40];
            for (int i = 0; i < 40; i++) {
                index[i] = i;
            }
            if (sh.myPe() == 0) {
                g.put(new int[] {0}, new int[] {39}, index, null);
            }
            final ShmemTeam team = sh.teamWorld().splitStrided(1, 1, 3); // world PEs 1, 2, 3: team ranks 0, 1, 2
            ga.sync();
            final boolean inTeam = sh.myPe() >= 1;
            final ShmemCtx ctx = inTeam ? team.createCtx(0) : null;
            try (ShmemCtx used = inTeam ? ctx.use() : null) {
                if (sh.myPe() == 1) {
                    a.put(new int[] {25}, new int[] {25}, new double[] {42.0}, null); // PE 2's element
                    a.scatter(new double[] {7.0}, new int[][] {{17}}, 1); // PE 1's own
                    assertEquals(0L, c.readInc(new int[] {2}, 5)); // PE 2's counter
                    assertTrue(sh.defaultContextInUse() == false, "the team's context is still in use afterwards");
                }
                if (inTeam) {
                    g.updateGhosts();
                }
            }
            if (!inTeam) {
                g.updateGhosts();
            }
            ga.sync(); // completes GA's puts, which went on the default context
            final double[] all = new double[40];
            a.get(new int[] {0}, new int[] {39}, all, null);
            final double[] want = new double[40];
            want[25] = 42.0;
            want[17] = 7.0;
            assertArrayEquals(want, all, 0.0, "PE " + sh.myPe() + " reads the array");
            final long[] counters = new long[4];
            c.get(new int[] {0}, new int[] {3}, counters, null);
            assertArrayEquals(new long[] {0, 0, 5, 0}, counters);
            // Periodic: PE p's block is 10p .. 10p+9, its ghosts the elements just below and just above it.
            final double[] local = g.access().doubles();
            final int me = sh.myPe();
            assertEquals((10 * me + 39) % 40, local[0], 0.0, "PE " + me + "'s lower ghost");
            assertEquals((10 * me + 10) % 40, local[local.length - 1], 0.0, "PE " + me + "'s upper ghost");
            ga.sync();
            if (ctx != null) {
                ctx.destroy();
            }
        });
    }
}
