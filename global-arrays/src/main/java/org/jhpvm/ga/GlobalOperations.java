package org.jhpvm.ga;

import java.util.Objects;

import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.Shmem;

/**
 * Global operations on data local to each PE ({@code GA_Dgop}, {@code GA_Brdcst} and their group forms), and the
 * state {@link GlobalArrays} is built on (the PE's SHMEM and the world group), so that this part of the API stands in
 * its own file. {@link GlobalArrays} is the only subclass, and the methods here are documented on its page.
 * <p>
 * Thread-safety: as {@link GlobalArrays}: the PE's own thread only.
 */
abstract sealed class GlobalOperations permits ClusterQueries {
    final Shmem shmem;
    /** The world group ({@code GA_Pgroup_get_world}). */
    final GaGroup world;
    /**
     * The default group ({@code GA_Pgroup_set_default}): arrays are created on it unless a builder names another, and
     * {@code nodeid}, {@code nnodes}, {@code sync}, {@code pgroupCreate} and the group-less {@code gop} and
     * {@code brdcst} act on it. The world group until set.
     */
    GaGroup defaultGroup;
    /** Scratch of {@code brdcst} for doubles: their bits travel as longs. */
    private long[] bits = new long[0];

    GlobalOperations(final Shmem shmem) {
        this.shmem = Objects.requireNonNull(shmem, "shmem");
        final int n = shmem.nPes();
        final int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        this.world = new GaGroup((GlobalArrays) this, shmem.teamWorld(), all);
        this.defaultGroup = world;
    }

    // ---------------------------------------------------------------- global operations on local data

    /**
     * {@code GA_Dgop} over the default group (the world unless {@code pgroupSetDefault} chose another): {@code x} is
     * replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * that group; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final double[] x, final GopOp op) {
        gop(defaultGroup, x, op);
    }

    /**
     * {@code GA_Lgop} over the default group (the world unless {@code pgroupSetDefault} chose another): {@code x} is
     * replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * that group; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final long[] x, final GopOp op) {
        gop(defaultGroup, x, op);
    }

    /**
     * {@code GA_Igop} over the default group (the world unless {@code pgroupSetDefault} chose another): {@code x} is
     * replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * that group; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final int[] x, final GopOp op) {
        gop(defaultGroup, x, op);
    }

    /**
     * {@code GA_Fgop} over the default group (the world unless {@code pgroupSetDefault} chose another): {@code x} is
     * replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * that group; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final float[] x, final GopOp op) {
        gop(defaultGroup, x, op);
    }

    /**
     * {@code GA_Pgroup_dgop}: collective over the group; every member gets the same bits (a fixed reduction tree).
     * Element i of {@code x} becomes the reduction with {@code op} of every member's element i (ABSMAX and ABSMIN of
     * the absolute values).
     *
     * @param group the group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final double[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    /**
     * {@code GA_Pgroup_lgop}: the long form of {@link #gop(GaGroup, double[], GopOp)}. Collective over the group;
     * element i of {@code x} becomes the reduction with {@code op} of every member's element i, the same bits on every
     * member.
     *
     * @param group group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final long[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    /**
     * {@code GA_Pgroup_igop}: the int form of {@link #gop(GaGroup, double[], GopOp)}. Collective over the group;
     * element i of {@code x} becomes the reduction with {@code op} of every member's element i, the same bits on every
     * member.
     *
     * @param group group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final int[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    /**
     * {@code GA_Pgroup_fgop}: the float form of {@link #gop(GaGroup, double[], GopOp)}. Collective over the group;
     * element i of {@code x} becomes the reduction with {@code op} of every member's element i, the same bits on every
     * member.
     *
     * @param group group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final float[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    private static ReduceOp reduceOp(final GopOp op) {
        Objects.requireNonNull(op, "op");
        return switch (op) {
            case SUM -> ReduceOp.SUM;
            case PROD -> ReduceOp.PROD;
            case MAX, ABSMAX -> ReduceOp.MAX;
            case MIN, ABSMIN -> ReduceOp.MIN;
        };
    }

    void checkGroup(final GaGroup group) {
        Objects.requireNonNull(group, "group");
        if (group.ga != this) {
            throw new IllegalArgumentException("group " + group + " belongs to another PE's GlobalArrays");
        }
        group.checkMember();
    }

    /**
     * {@code GA_Brdcst} over the default group (the world unless set): every PE's {@code buf[0..len)} becomes the
     * root's. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements, the same on every PE
     * @param root the rank in the default group (the world PE unless set) whose data is broadcast
     */
    public void brdcst(final byte[] buf, final int len, final int root) {
        brdcst(defaultGroup, buf, len, root);
    }

    /**
     * {@code GA_Brdcst} of doubles over the default group: every PE's {@code buf[0..len)} becomes the root's, bit for
     * bit;
     * elements from {@code len} on are left alone. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements (GA's {@code lenbuf} counts bytes), the same on every PE
     * @param root the root PE, whose data is broadcast
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   PE
     */
    public void brdcst(final double[] buf, final int len, final int root) {
        brdcst(defaultGroup, buf, len, root);
    }

    /**
     * {@code GA_Brdcst} of longs over the default group: every PE's {@code buf[0..len)} becomes the root's, bit for
     * bit;
     * elements from {@code len} on are left alone. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements (GA's {@code lenbuf} counts bytes), the same on every PE
     * @param root the root PE, whose data is broadcast
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   PE
     */
    public void brdcst(final long[] buf, final int len, final int root) {
        brdcst(defaultGroup, buf, len, root);
    }

    /**
     * {@code GA_Brdcst} of ints over the default group: every PE's {@code buf[0..len)} becomes the root's, bit for bit;
     * elements from {@code len} on are left alone. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements (GA's {@code lenbuf} counts bytes), the same on every PE
     * @param root the root PE, whose data is broadcast
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   PE
     */
    public void brdcst(final int[] buf, final int len, final int root) {
        brdcst(defaultGroup, buf, len, root);
    }

    /**
     * {@code GA_Pgroup_brdcst}: a bitwise-or reduction in which only the root contributes its bits, so the data arrives
     * exactly (NaN payloads and -0.0 included) without a symmetric staging buffer. Collective over the group: every
     * member's {@code buf[0..len)} becomes the root's.
     *
     * @param group the group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final byte[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (group.nodeid() != root) {
            java.util.Arrays.fill(buf, 0, len, (byte) 0);
        }
        shmem.reduce(group.team, ReduceOp.OR, buf, buf, len);
    }

    /**
     * {@code GA_Pgroup_brdcst} of ints: every member's {@code buf[0..len)} becomes the root's, bit for bit. Collective
     * over the group.
     *
     * @param group group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank of the root in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final int[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (group.nodeid() != root) {
            java.util.Arrays.fill(buf, 0, len, 0);
        }
        shmem.reduce(group.team, ReduceOp.OR, buf, buf, len);
    }

    /**
     * {@code GA_Pgroup_brdcst} of longs: every member's {@code buf[0..len)} becomes the root's, bit for bit. Collective
     * over the group.
     *
     * @param group group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank of the root in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final long[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (group.nodeid() != root) {
            java.util.Arrays.fill(buf, 0, len, 0L);
        }
        shmem.reduce(group.team, ReduceOp.OR, buf, buf, len);
    }

    /**
     * {@code GA_Pgroup_brdcst} of doubles: every member's {@code buf[0..len)} becomes the root's, bit for bit (NaN
     * payloads and -0.0 included). Collective over the group.
     *
     * @param group group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank of the root in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final double[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (bits.length < len) {
            bits = new long[len];
        }
        final boolean isRoot = group.nodeid() == root;
        for (int i = 0; i < len; i++) {
            bits[i] = isRoot ? Double.doubleToRawLongBits(buf[i]) : 0;
        }
        shmem.reduce(group.team, ReduceOp.OR, bits, bits, len);
        for (int i = 0; i < len; i++) {
            buf[i] = Double.longBitsToDouble(bits[i]);
        }
    }

    private void checkBrdcst(final GaGroup group, final int bufLength, final int len, final int root) {
        checkGroup(group);
        if (bufLength < 0) {
            throw new NullPointerException("buf");
        }
        if (len < 0 || len > bufLength) {
            throw new IndexOutOfBoundsException("len=" + len + " outside the buffer of " + bufLength);
        }
        if (root < 0 || root >= group.nnodes()) {
            throw new IndexOutOfBoundsException("root " + root + " outside the group's 0.." + (group.nnodes() - 1));
        }
    }
}
