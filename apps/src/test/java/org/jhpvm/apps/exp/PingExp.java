package org.jhpvm.apps.exp;

import java.util.Arrays;
import org.jhpvm.fabric.*;
import org.jhpvm.fm.*;

public final class PingExp {
    static long pings;
    public static void main(String[] a) throws Exception {
        final int n = Integer.parseInt(a[0]);
        final String mode = a[1];
        if (mode.equals("nic")) {
            ProcessFabric pf = ProcessFabric.launched().orElseThrow();
            Nic nic = pf.nic(pf.firstLocalNic());
            int me = pf.rank();
            for (int t = 0; t < 5; t++) {
                long[] rtt = new long[n];
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    if (me == 0) {
                        Frame s = nic.acquire(); s.setDestination(1).setLength(8); nic.send(s);
                    }
                    Frame f; while ((f = nic.poll()) == null) { Thread.onSpinWait(); }
                    nic.release(f);
                    if (me == 1) {
                        Frame s = nic.acquire(); s.setDestination(0).setLength(8); nic.send(s);
                    }
                    rtt[i] = System.nanoTime() - t0;
                }
                Arrays.sort(rtt);
                if (me == 0) System.out.println("NIC one-way median " + rtt[n / 2] / 2.0);
            }
            System.exit(0);
        }
        FmJob.builder().pes(2).build().run(fm -> {
            byte[] buf = new byte[64];
            fm.register(1, (FmHandler) (s, src) -> { s.receive(buf, 0, s.declaredLength()); pings++; });
            int peer = 1 - fm.pe();
            for (int t = 0; t < 5; t++) {
                long[] rtt = new long[n];
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    if (fm.pe() == 0) { var o = fm.beginMessage(peer, 8, 1); o.sendPiece(buf, 0, 8); o.endMessage(); }
                    if (mode.equals("spin")) { while (pings == 0) fm.extract(); } else if (mode.equals("pause")) { while (pings == 0) { if (fm.extract() == 0) Thread.onSpinWait(); } } else if (mode.equals("clock")) { long d = System.nanoTime() + 1_000_000_000L; while (pings == 0) { if (fm.extract() == 0 && System.nanoTime() - d > 0) throw new Error(); } } else fm.extractUntil(() -> pings > 0, 10_000_000_000L);
                    pings--;
                    if (fm.pe() == 1) { var o = fm.beginMessage(peer, 8, 1); o.sendPiece(buf, 0, 8); o.endMessage(); }
                    rtt[i] = System.nanoTime() - t0;
                }
                Arrays.sort(rtt);
                if (fm.pe() == 0) System.out.println("FM " + mode + " one-way median " + rtt[n / 2] / 2.0 + " p90 " + rtt[n * 9 / 10] / 2.0);
            }
        });
    }
}
