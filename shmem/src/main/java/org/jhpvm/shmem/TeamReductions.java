package org.jhpvm.shmem;

import org.jhpvm.fm.FastMessages;

/**
 * The team reductions and scans of {@link Shmem} ({@code shmem_TYPE_OP_reduce}, and OpenSHMEM 1.6's
 * {@code sum_inscan}/{@code sum_exscan}), in their own file so that {@code Shmem} stays readable; {@code Shmem} is
 * the only subclass, and the methods are documented on its page. The work is {@link Collectives}'.
 * <p>
 * Thread-safety: as {@link Shmem}.
 */
abstract sealed class TeamReductions extends SymmetricHeap permits Shmem {
    TeamReductions(final FastMessages fm, final World world, final long heapBytes) {
        super(fm, world, heapBytes);
    }

    // ---------------------------------------------------------------- reductions (team, deterministic)

    /**
     * Team reduction ({@code shmem_TYPE_OP_reduce}): {@code dest[i] = src[i] OP ... } over the team's PEs for
     * {@code i < count}, combined on a fixed tree so every PE, and every run, gets the same bits. {@code dest} and
     * {@code src} may be the same array, or any arrays (a symmetric object's {@code local()} included).
     * <p>
     * Every {@link ReduceOp} applies to long; SUM and PROD wrap on overflow, as Java's long arithmetic does. The
     * local checks below run before anything is sent.
     *
     * @param team  the team
     * @param op    the operator
     * @param dest  result
     * @param src   this PE's contribution
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative or {@code team} is another PE's; a member that
     *                                   receives a different count from another throws it too, naming both counts
     *                                   (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final long[] dest, final long[] src, final int count) {
        collectives.reduce(team, op, Kind.LONG, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}, on int arrays ({@code shmem_int_OP_reduce}):
     * every {@link ReduceOp} applies, and SUM and PROD wrap on overflow as Java's int arithmetic does.
     *
     * @param team  team (every member calls)
     * @param op    op, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative or {@code team} is another PE's; a member that
     *                                   receives a different count from another throws it too, naming both counts
     *                                   (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final int[] dest, final int[] src, final int count) {
        collectives.reduce(team, op, Kind.INT, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}, on byte arrays, with OpenSHMEM's
     * {@code int8} semantics: bytes are signed, so MAX and MIN order them {@code -128 .. 127}, and SUM and PROD wrap
     * to a byte. Every {@link ReduceOp} applies.
     *
     * @param team  team (every member calls)
     * @param op    op, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative or {@code team} is another PE's; a member that
     *                                   receives a different count from another throws it too, naming both counts
     *                                   (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final byte[] dest, final byte[] src, final int count) {
        collectives.reduce(team, op, Kind.BYTE, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}; no AND/OR/XOR. On double arrays
     * ({@code shmem_double_OP_reduce}): MAX, MIN, SUM and PROD. The fixed combining tree gives the same bits on
     * every member and in every run, though a sum may differ in its last bits from a left-to-right sequential one.
     *
     * @param team  team (every member calls)
     * @param op    op: MAX, MIN, SUM or PROD, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative, {@code op} is AND, OR or XOR, or {@code team} is
     *                                   another PE's; a member that receives a different count from another throws
     *                                   it too, naming both counts (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final double[] dest, final double[] src,
        final int count) {
        collectives.reduce(team, op, Kind.DOUBLE, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}; no AND/OR/XOR. On float arrays
     * ({@code shmem_float_OP_reduce}): MAX, MIN, SUM and PROD, each step rounded to float. The fixed combining tree
     * gives the same bits on every member and in every run, though a sum may differ in its last bits from a
     * left-to-right sequential one.
     *
     * @param team  team (every member calls)
     * @param op    op: MAX, MIN, SUM or PROD, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative, {@code op} is AND, OR or XOR, or {@code team} is
     *                                   another PE's; a member that receives a different count from another throws
     *                                   it too, naming both counts (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final float[] dest, final float[] src,
        final int count) {
        collectives.reduce(team, op, Kind.FLOAT, dest, src, count);
    }

    // ---------------------------------------------------------------- scans (OpenSHMEM 1.6, team)

    /**
     * {@code shmem_long_sum_inscan} (OpenSHMEM 1.6): inclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r} added left to right, so
     * the result has the bits of the sequential sum (wrapping on overflow). Collective over the team; every member
     * passes the same
     * count.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumInscan(final ShmemTeam team, final long[] dest, final long[] src, final int count) {
        collectives.scan(team, Kind.LONG, dest, src, count, true);
    }

    /**
     * {@code shmem_long_sum_exscan} (OpenSHMEM 1.6): exclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r-1} added left to right; on
     * rank 0, the empty sum, 0. As {@link #sumInscan(ShmemTeam, long[], long[], int)} otherwise.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumExscan(final ShmemTeam team, final long[] dest, final long[] src, final int count) {
        collectives.scan(team, Kind.LONG, dest, src, count, false);
    }

    /**
     * {@code shmem_int_sum_inscan} (OpenSHMEM 1.6): inclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r} added left to right, so
     * the result has the bits of the sequential sum (wrapping on overflow). Collective over the team; every member
     * passes the same
     * count.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumInscan(final ShmemTeam team, final int[] dest, final int[] src, final int count) {
        collectives.scan(team, Kind.INT, dest, src, count, true);
    }

    /**
     * {@code shmem_int_sum_exscan} (OpenSHMEM 1.6): exclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r-1} added left to right; on
     * rank 0, the empty sum, 0. As {@link #sumInscan(ShmemTeam, int[], int[], int)} otherwise.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumExscan(final ShmemTeam team, final int[] dest, final int[] src, final int count) {
        collectives.scan(team, Kind.INT, dest, src, count, false);
    }

    /**
     * {@code shmem_double_sum_inscan} (OpenSHMEM 1.6): inclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r} added left to right, so
     * the result has the bits of the sequential sum. Collective over the team; every member passes the same
     * count.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumInscan(final ShmemTeam team, final double[] dest, final double[] src, final int count) {
        collectives.scan(team, Kind.DOUBLE, dest, src, count, true);
    }

    /**
     * {@code shmem_double_sum_exscan} (OpenSHMEM 1.6): exclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r-1} added left to right; on
     * rank 0, the empty sum, 0. As {@link #sumInscan(ShmemTeam, double[], double[], int)} otherwise.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumExscan(final ShmemTeam team, final double[] dest, final double[] src, final int count) {
        collectives.scan(team, Kind.DOUBLE, dest, src, count, false);
    }

    /**
     * {@code shmem_float_sum_inscan} (OpenSHMEM 1.6): inclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r} added left to right, so
     * the result has the bits of the sequential sum. Collective over the team; every member passes the same
     * count.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumInscan(final ShmemTeam team, final float[] dest, final float[] src, final int count) {
        collectives.scan(team, Kind.FLOAT, dest, src, count, true);
    }

    /**
     * {@code shmem_float_sum_exscan} (OpenSHMEM 1.6): exclusive prefix sum over the team in rank order,
     * {@code dest[i]} on team rank {@code r} = {@code src[i]} of ranks {@code 0 .. r-1} added left to right; on
     * rank 0, the empty sum, 0. As {@link #sumInscan(ShmemTeam, float[], float[], int)} otherwise.
     *
     * @param team  the team
     * @param dest  result: its first {@code count} elements
     * @param src   this PE's contribution (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code count} is negative or the team is another PE's; on every member if
     *                                   the members passed different counts
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void sumExscan(final ShmemTeam team, final float[] dest, final float[] src, final int count) {
        collectives.scan(team, Kind.FLOAT, dest, src, count, false);
    }
}
