package org.jhpvm.fm;

import java.time.Duration;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;

/** Jobs for the tests: small fabrics, short timeouts. */
final class FmTestSupport {
    static final long WAIT_NS = 20_000_000_000L;

    private FmTestSupport() {
    }

    static FmJob job(final int pes) {
        return FmJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).build();
    }

    static FmJob job(final int pes, final FaultPlan plan) {
        return job(FabricConfig.builder(pes).faultPlan(plan).build(), FmConfig.defaults());
    }

    static FmJob job(final FabricConfig fabric, final FmConfig fm) {
        return FmJob.builder().fabric(fabric).fm(fm).timeout(Duration.ofSeconds(60)).build();
    }

    /** A test pattern that depends on message, position and seed. */
    static byte pattern(final long seed, final int message, final int i) {
        long x = seed * 0x9E3779B97F4A7C15L + message * 0xBF58476D1CE4E5B9L + i;
        x ^= x >>> 31;
        x *= 0x94D049BB133111EBL;
        return (byte) (x ^ x >>> 29);
    }

    static byte[] message(final long seed, final int message, final int length) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = pattern(seed, message, i);
        }
        return b;
    }
}
