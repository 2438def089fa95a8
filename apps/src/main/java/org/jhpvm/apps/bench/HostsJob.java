package org.jhpvm.apps.bench;

import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Reports;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * The SHMEM job of {@code bench hosts}, one PE in each host: PE 0 puts 1 MiB into PE 1 again and again (a stream
 * closed by a quiet: MB/s), then makes blocking 8-byte gets from it one after another (one-way latency is the get's
 * round trip, as for a put). Medians over the trials; PE 0's process writes them as JSON to {@code args[0]}. Started
 * by {@code launch}, which makes it one job of the two processes.
 */
public final class HostsJob {
    private static final int MIB = 1 << 20;

    private HostsJob() {
    }

    /**
     * Runs the job.
     *
     * @param args the JSON file, trials, puts per trial, gets per trial
     * @throws Exception if the job fails or the JSON cannot be written
     */
    public static void main(final String[] args) throws Exception {
        final Path out = Path.of(args[0]);
        final int trials = Integer.parseInt(args[1]);
        final int puts = Integer.parseInt(args[2]);
        final int gets = Integer.parseInt(args[3]);
        final double[] bw = new double[trials];
        final double[] get = new double[trials];
        ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(10)).build().run(sh -> {
            final SymmetricLongs buf = sh.mallocLongs(MIB / 8);
            final long[] src = new long[MIB / 8];
            final long[] one = new long[1];
            for (int t = -1; t < trials; t++) { // a warm-up pass first
                sh.barrierAll();
                long t0 = System.nanoTime();
                if (sh.myPe() == 0) {
                    for (int k = 0; k < puts; k++) {
                        buf.put(1, 0, src, 0, src.length);
                    }
                    sh.quiet();
                }
                final double mbps = (double) puts * MIB / 1e6 / ((System.nanoTime() - t0) / 1e9);
                sh.barrierAll();
                t0 = System.nanoTime();
                if (sh.myPe() == 0) {
                    for (int k = 0; k < gets; k++) {
                        buf.get(1, 0, one, 0, 1);
                    }
                }
                final double getNs = (System.nanoTime() - t0) / (double) gets;
                if (t >= 0 && sh.myPe() == 0) {
                    bw[t] = mbps;
                    get[t] = getNs;
                }
            }
            sh.barrierAll();
        });
        if (org.jhpvm.apps.Launched.reports()) {
            final ObjectNode o = Reports.object();
            o.put("host_put_bw_MBps_1MiB", Stats.median(bw));
            o.put("host_get_latency_ns_8B", Stats.median(get));
            Reports.writeJson(out, o);
        }
    }
}
