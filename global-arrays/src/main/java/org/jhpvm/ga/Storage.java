package org.jhpvm.ga;

import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemTeam;
import org.jhpvm.shmem.SymmetricArray;
import org.jhpvm.shmem.SymmetricDoubles;
import org.jhpvm.shmem.SymmetricFloats;
import org.jhpvm.shmem.SymmetricInts;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * A global array's memory: one SHMEM symmetric object allocated on the array's group, typed calls dispatched once
 * per block-strided transfer (complex elements as pairs of slots, {@link Paired}). Buffers arrive as {@code Object}
 * already checked against the array's type.
 */
abstract sealed class Storage {
    /** Blocks up to this many elements are copied element by element by {@link #copyBlocks}. */
    private static final int SMALL_BLOCK = 8;

    final SymmetricArray symmetric;

    Storage(final SymmetricArray symmetric) {
        this.symmetric = symmetric;
    }

    static Storage allocate(final Shmem shmem, final ShmemTeam team, final GaType type, final int length) {
        return switch (type) {
            case INT -> new Ints(shmem.mallocInts(team, length));
            case LONG -> new Longs(shmem.mallocLongs(team, length));
            case FLOAT -> new Floats(shmem.mallocFloats(team, length));
            case DOUBLE -> new Doubles(shmem.mallocDoubles(team, length));
            case SCPL -> new Paired(new Floats(shmem.mallocFloats(team, pairs(length))));
            case DCPL -> new Paired(new Doubles(shmem.mallocDoubles(team, pairs(length))));
        };
    }

    private static int pairs(final int length) {
        if (length > (Integer.MAX_VALUE - 8) / 2) {
            throw new IllegalArgumentException("a local block of " + length + " complex elements exceeds a Java "
                + "array");
        }
        return 2 * length;
    }

    abstract Object local();

    abstract void put(int pe, int di, int ds, Object src, int si, int ss, int block, int nblocks);

    abstract void get(int pe, int si, int ss, Object dst, int di, int ds, int block, int nblocks, boolean nbi);

    abstract void acc(int pe, int di, int ds, Object src, int si, int ss, int block, int nblocks, long ia, double da);

    long fetchAdd(final int pe, final int index, final long inc) {
        throw new IllegalArgumentException("readInc needs an int or long array");
    }

    /**
     * PE {@code pe}'s part of the array for direct loads ({@code shmem_ptr}), or null when it lies in another JVM.
     *
     * @param pe world PE
     * @return its storage array, or null
     */
    abstract Object peer(int pe);

    /**
     * Copies {@code nblocks} blocks of {@code block} elements straight out of PE {@code pe}'s part (which must be
     * {@link #peer accessible}) into {@code dst}: a load from shared memory, not a SHMEM get, so the caller orders
     * it against the owner's stores with its own synchronisation.
     */
    void direct(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
        final int block, final int nblocks) {
        copyBlocks(peer(pe), si, ss, dst, di, ds, block, nblocks);
    }

    /**
     * Short blocks of doubles (a ghost face across the innermost dimension): one flat loop per width up to 4, whose
     * loads the processor overlaps. A call per block ran 60% slower than a loop nested in the loop over the blocks,
     * and that nested loop 25% slower than the flat one for width 3, twice as slow for width 1.
     */
    private static void copyShort(final double[] from, final int si, final int ss, final double[] to, final int di,
        final int ds, final int block, final int nblocks) {
        switch (block) {
            case 1 -> {
                for (int b = 0; b < nblocks; b++) {
                    to[di + b * ds] = from[si + b * ss];
                }
            }
            case 2 -> {
                for (int b = 0; b < nblocks; b++) {
                    final int s = si + b * ss;
                    final int d = di + b * ds;
                    to[d] = from[s];
                    to[d + 1] = from[s + 1];
                }
            }
            case 3 -> {
                for (int b = 0; b < nblocks; b++) {
                    final int s = si + b * ss;
                    final int d = di + b * ds;
                    to[d] = from[s];
                    to[d + 1] = from[s + 1];
                    to[d + 2] = from[s + 2];
                }
            }
            case 4 -> {
                for (int b = 0; b < nblocks; b++) {
                    final int s = si + b * ss;
                    final int d = di + b * ds;
                    to[d] = from[s];
                    to[d + 1] = from[s + 1];
                    to[d + 2] = from[s + 2];
                    to[d + 3] = from[s + 3];
                }
            }
            default -> {
                for (int b = 0, s = si, d = di; b < nblocks; b++, s += ss, d += ds) {
                    for (int e = 0; e < block; e++) {
                        to[d + e] = from[s + e];
                    }
                }
            }
        }
    }

    /** Block-strided copy between two arrays of one primitive type: one arraycopy per block, or per run. */
    static void copyBlocks(final Object src, final int si, final int ss, final Object dst, final int di, final int ds,
        final int block, final int nblocks) {
        if (block == ss && block == ds || nblocks == 1) {
            System.arraycopy(src, si, dst, di, block * nblocks);
        } else if (block <= SMALL_BLOCK && src instanceof double[] from && dst instanceof double[] to) {
            copyShort(from, si, ss, to, di, ds, block, nblocks);
        } else {
            for (int b = 0, s = si, d = di; b < nblocks; b++, s += ss, d += ds) {
                System.arraycopy(src, s, dst, d, block);
            }
        }
    }

    static final class Ints extends Storage {
        private final SymmetricInts s;

        Ints(final SymmetricInts s) {
            super(s);
            this.s = s;
        }

        @Override
        Object local() {
            return s.local();
        }

        @Override
        Object peer(final int pe) {
            return s.ptr(pe);
        }

        @Override
        void put(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks) {
            s.ibput(pe, di, ds, (int[]) src, si, ss, block, nblocks);
        }

        @Override
        void get(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
            final int block, final int nblocks, final boolean nbi) {
            if (nbi) {
                s.ibgetNbi(pe, si, ss, (int[]) dst, di, ds, block, nblocks);
            } else {
                s.ibget(pe, si, ss, (int[]) dst, di, ds, block, nblocks);
            }
        }

        @Override
        void acc(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks, final long ia, final double da) {
            s.ibacc(pe, di, ds, (int[]) src, si, ss, block, nblocks, (int) ia);
        }

        @Override
        long fetchAdd(final int pe, final int index, final long inc) {
            return s.atomicFetchAdd(pe, index, (int) inc);
        }
    }

    static final class Longs extends Storage {
        private final SymmetricLongs s;

        Longs(final SymmetricLongs s) {
            super(s);
            this.s = s;
        }

        @Override
        Object local() {
            return s.local();
        }

        @Override
        Object peer(final int pe) {
            return s.ptr(pe);
        }

        @Override
        void put(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks) {
            s.ibput(pe, di, ds, (long[]) src, si, ss, block, nblocks);
        }

        @Override
        void get(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
            final int block, final int nblocks, final boolean nbi) {
            if (nbi) {
                s.ibgetNbi(pe, si, ss, (long[]) dst, di, ds, block, nblocks);
            } else {
                s.ibget(pe, si, ss, (long[]) dst, di, ds, block, nblocks);
            }
        }

        @Override
        void acc(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks, final long ia, final double da) {
            s.ibacc(pe, di, ds, (long[]) src, si, ss, block, nblocks, ia);
        }

        @Override
        long fetchAdd(final int pe, final int index, final long inc) {
            return s.atomicFetchAdd(pe, index, inc);
        }
    }

    static final class Floats extends Storage {
        private final SymmetricFloats s;

        Floats(final SymmetricFloats s) {
            super(s);
            this.s = s;
        }

        @Override
        Object local() {
            return s.local();
        }

        @Override
        Object peer(final int pe) {
            return s.ptr(pe);
        }

        @Override
        void put(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks) {
            s.ibput(pe, di, ds, (float[]) src, si, ss, block, nblocks);
        }

        @Override
        void get(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
            final int block, final int nblocks, final boolean nbi) {
            if (nbi) {
                s.ibgetNbi(pe, si, ss, (float[]) dst, di, ds, block, nblocks);
            } else {
                s.ibget(pe, si, ss, (float[]) dst, di, ds, block, nblocks);
            }
        }

        @Override
        void acc(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks, final long ia, final double da) {
            s.ibacc(pe, di, ds, (float[]) src, si, ss, block, nblocks, (float) da);
        }
    }

    /**
     * Complex elements: each a pair of consecutive floats or doubles of the storage below, so every element index,
     * stride and block length is doubled on the way down. A real {@code alpha} of acc scales both parts, which is
     * the same per-slot accumulate; a complex one is applied by the caller first ({@link GlobalArray}).
     */
    static final class Paired extends Storage {
        private final Storage slots;

        Paired(final Storage slots) {
            super(slots.symmetric);
            this.slots = slots;
        }

        @Override
        Object local() {
            return slots.local();
        }

        @Override
        Object peer(final int pe) {
            return slots.peer(pe);
        }

        @Override
        void direct(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
            final int block, final int nblocks) {
            slots.direct(pe, 2 * si, 2 * ss, dst, 2 * di, 2 * ds, 2 * block, nblocks);
        }


        @Override
        void put(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks) {
            slots.put(pe, 2 * di, 2 * ds, src, 2 * si, 2 * ss, 2 * block, nblocks);
        }

        @Override
        void get(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
            final int block, final int nblocks, final boolean nbi) {
            slots.get(pe, 2 * si, 2 * ss, dst, 2 * di, 2 * ds, 2 * block, nblocks, nbi);
        }

        @Override
        void acc(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks, final long ia, final double da) {
            slots.acc(pe, 2 * di, 2 * ds, src, 2 * si, 2 * ss, 2 * block, nblocks, ia, da);
        }
    }

    static final class Doubles extends Storage {
        private final SymmetricDoubles s;

        Doubles(final SymmetricDoubles s) {
            super(s);
            this.s = s;
        }

        @Override
        Object local() {
            return s.local();
        }

        @Override
        Object peer(final int pe) {
            return s.ptr(pe);
        }

        @Override
        void put(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks) {
            s.ibput(pe, di, ds, (double[]) src, si, ss, block, nblocks);
        }

        @Override
        void get(final int pe, final int si, final int ss, final Object dst, final int di, final int ds,
            final int block, final int nblocks, final boolean nbi) {
            if (nbi) {
                s.ibgetNbi(pe, si, ss, (double[]) dst, di, ds, block, nblocks);
            } else {
                s.ibget(pe, si, ss, (double[]) dst, di, ds, block, nblocks);
            }
        }

        @Override
        void acc(final int pe, final int di, final int ds, final Object src, final int si, final int ss,
            final int block, final int nblocks, final long ia, final double da) {
            s.ibacc(pe, di, ds, (double[]) src, si, ss, block, nblocks, da);
        }
    }
}
