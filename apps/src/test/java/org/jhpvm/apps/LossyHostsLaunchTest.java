package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.jhpvm.apps.bench.NetworkNamespaces;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs across two hosts whose link loses 1% of its packets in each direction (an nftables rule on each end's ingress,
 * which drops single fragments of a datagram too), with the UDP channels' default datagrams of up to 64 KiB (a lost
 * packet costs its whole datagram, which Aeron resends): results must be exactly those of a lossless run. Two network namespaces joined by a veth pair, made and removed here
 * ({@link NetworkNamespaces}); traffic goes only to the two addresses assigned to them. Needs root, iproute2 and
 * nftables; skipped with the reason where the machine does not allow it. Soak: five JVMs a test.
 */
@Tag("soak")
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LossyHostsLaunchTest {
    private NetworkNamespaces hosts;

    @BeforeAll
    void makeLossyHosts() {
        try {
            hosts = NetworkNamespaces.create();
        } catch (IllegalStateException e) {
            Assumptions.assumeTrue(false, "skipped: network namespaces need root and iproute2 (" + e.getMessage()
                + ")");
        }
        try {
            hosts.loseIncoming(1);
        } catch (IllegalStateException e) {
            hosts.close();
            Assumptions.assumeTrue(false, "skipped: the link cannot be made to lose packets (nftables' nft: "
                + e.getMessage() + ")");
        }
    }

    @AfterAll
    void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    private String hostList(final int perHost) {
        return hosts.address(0) + ":" + perHost + "," + hosts.address(1) + ":" + perHost;
    }

    @Test
    void hydroOnTwoLossyHostsOfTwoProcessesShouldGiveTheBytesOfOneJvm(@TempDir final Path dir) throws Exception {
        // IPC between the processes of a host, UDP with losses between the hosts; every cycle's halo exchange and
        // time step reduction cross the link.
        final Path launched = dir.resolve("launched");
        final Path inJvm = dir.resolve("jvm");
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 240, "launch", "-n", "4", "--hosts", hostList(2),
            "--spawn", hosts.spawnPrefix(), "--", "hydro", "sod", "--zones", "100", "--out", launched.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(0, Main.execute("hydro", "sod", "--zones", "100", "--pes", "4", "--out", inJvm.toString()));
        assertArrayEquals(Files.readAllBytes(inJvm.resolve("sod.csv")), Files.readAllBytes(launched.resolve("sod.csv")),
            "the fields of 2 lossy hosts x 2 processes differ from one JVM's");
    }

    @Test
    void largePutsShouldArriveWholeOverALossyLink(@TempDir final Path dir) throws Exception {
        // 1 MiB puts are 16 datagrams of 64 KiB, each 45 packets of the 1,500-byte link: most puts lose some.
        final Path prog = dir.resolve("LossyPuts.java");
        Files.writeString(prog, """
            import org.jhpvm.shmem.*;
            public class LossyPuts {
                public static void main(String[] args) {
                    org.jhpvm.runtime.Jhpvm.shmem(args, sh -> {
                        final int n = 1 << 17; // 1 MiB of longs
                        final int rounds = 12;
                        SymmetricLongs a = sh.mallocLongs(n * rounds);
                        long[] src = new long[n];
                        int other = 1 - sh.myPe();
                        for (int r = 0; r < rounds; r++) {
                            for (int i = 0; i < n; i++) {
                                src[i] = (long) sh.myPe() << 40 ^ (long) r << 24 ^ i * 0x9E3779B97F4A7C15L;
                            }
                            a.put(other, r * n, src, 0, n);
                        }
                        sh.barrierAll();
                        long[] back = new long[n];
                        for (int r = 0; r < rounds; r++) {
                            a.get(other, r * n, back, 0, n); // what I put there, read back over the link
                            for (int i = 0; i < n; i++) {
                                long mine = (long) sh.myPe() << 40 ^ (long) r << 24 ^ i * 0x9E3779B97F4A7C15L;
                                long theirs = (long) other << 40 ^ (long) r << 24 ^ i * 0x9E3779B97F4A7C15L;
                                if (a.local()[r * n + i] != theirs || back[i] != mine) {
                                    throw new IllegalStateException("round " + r + " element " + i + " differs");
                                }
                            }
                        }
                        sh.barrierAll();
                        System.out.println("PE " + sh.myPe() + ": " + rounds + " MiB each way, all there");
                    });
                }
            }
            """);
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 240, "launch", "-n", "2", "--hosts", hostList(1),
            "--spawn", hosts.spawnPrefix(), "--", "run", prog.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PE 0] PE 0: 12 MiB each way, all there"), r.out());
        assertTrue(r.out().contains("[PE 1] PE 1: 12 MiB each way, all there"), r.out());
    }
}
