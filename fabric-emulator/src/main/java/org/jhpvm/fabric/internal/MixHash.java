package org.jhpvm.fabric.internal;

/** SplitMix64's finaliser, for the NICs' protection keys: a bijective 64-bit mixer. */
final class MixHash {
    private MixHash() {
    }

    static long mix(final long x) {
        long z = x;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
