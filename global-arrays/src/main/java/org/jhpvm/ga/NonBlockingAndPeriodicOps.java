package org.jhpvm.ga;

/**
 * The non-blocking ({@code NGA_NbPut}, {@code NGA_NbGet}, {@code NGA_NbAcc}) and periodic ({@code NGA_Periodic_*})
 * section operations of a {@link GlobalArray}: one of the package-private superclasses that hold its public methods
 * (documented on its page). Each calls {@link SectionTransfer} directly, as the blocking forms in
 * {@link GlobalArray} do.
 */
abstract sealed class NonBlockingAndPeriodicOps extends ComplexOps permits GlobalArray {
    NonBlockingAndPeriodicOps(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        super(ga, group, type, name, dist, overlayOf);
    }

    // ---------------------------------------------------------------- non-blocking

    /**
     * {@code NGA_NbPut}: the buffer may be reused when it returns; complete at the target after
     * {@link GlobalArrays#nbWait(long)} (or a fence or sync).
     *
     * @param lo  first subscript
     * @param hi  last
     * @param buf data (double[], float[], long[] or int[], matching the array)
     * @param ld  leading dimensions
     * @return the handle
     */
    public long nbPut(final int[] lo, final int[] hi, final Object buf, final int[] ld) {
        if (!hot.moveAny(Mover.PUT, lo, hi, buf, ld, 0, 0)) {
            sections.prepare(Mover.PUT, lo, hi, ones, buf, ld);
            sections.transfer(Mover.PUT, lo, hi, ones, buf, 0, 0, 0);
        }
        return ga.nbIssue();
    }

    /**
     * {@code NGA_NbGet}: {@code buf} holds the section after {@link GlobalArrays#nbWait(long)}.
     *
     * @param lo  first subscript
     * @param hi  last
     * @param buf receives (matching the array's type)
     * @param ld  leading dimensions
     * @return the handle
     */
    public long nbGet(final int[] lo, final int[] hi, final Object buf, final int[] ld) {
        if (!hot.moveAny(Mover.GET_NBI, lo, hi, buf, ld, 0, 0)) {
            sections.prepare(Mover.GET_NBI, lo, hi, ones, buf, ld);
            sections.transfer(Mover.GET_NBI, lo, hi, ones, buf, 0, 0, 0);
        }
        return ga.nbIssue();
    }

    /**
     * {@code NGA_NbAcc}. For int/long arrays alpha is rounded to the nearest integer.
     *
     * @param lo    first subscript
     * @param hi    last
     * @param buf   data (matching the array's type)
     * @param ld    leading dimensions
     * @param alpha scale
     * @return the handle
     */
    public long nbAcc(final int[] lo, final int[] hi, final Object buf, final int[] ld, final double alpha) {
        if (!hot.moveAny(Mover.ACC, lo, hi, buf, ld, Math.round(alpha), alpha)) {
            sections.prepare(Mover.ACC, lo, hi, ones, buf, ld);
            sections.transfer(Mover.ACC, lo, hi, ones, buf, 0, Math.round(alpha), alpha);
        }
        return ga.nbIssue();
    }

    // ---------------------------------------------------------------- periodic

    /**
     * {@code NGA_Periodic_put}: subscripts may leave the array and wrap around (a section up to twice the extent
     * long per dimension; an element named twice is written from the later buffer position).
     *
     * @param lo  first subscript (any integer)
     * @param hi  last, with {@code lo[d] <= hi[d] < lo[d] + 2*dims[d]}
     * @param buf data (matching the array's type)
     * @param ld  leading dimensions
     */
    public void periodicPut(final int[] lo, final int[] hi, final Object buf, final int[] ld) {
        sections.periodic(Mover.PUT, lo, hi, buf, ld, 0, 0);
    }

    /**
     * {@code NGA_Periodic_get}: as a get, but the subscripts may leave the array and wrap around (up to twice the
     * extent per dimension): {@code buf} receives the section as if the array repeated in every dimension. One-sided
     * and blocking: returns with the data.
     *
     * @param lo  first subscript (any integer)
     * @param hi  last, with {@code lo[d] <= hi[d] < lo[d] + 2*dims[d]}
     * @param buf receives the section (matching the array's type)
     * @param ld  leading dimensions of {@code buf}
     * @throws IndexOutOfBoundsException if the section is longer than twice the array in some dimension
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]}, {@code lo}/{@code hi} have the wrong length,
     *                                   {@code buf} is not of the array's type, or {@code buf} with {@code ld} cannot
     *                                   hold the section (checked before anything is sent)
     * @throws IllegalStateException     if the array was destroyed
     */
    public void periodicGet(final int[] lo, final int[] hi, final Object buf, final int[] ld) {
        sections.periodic(Mover.GET, lo, hi, buf, ld, 0, 0);
    }

    /**
     * {@code NGA_Periodic_acc}; for int/long arrays alpha is rounded. A section up to twice the extent long per
     * dimension; an element named twice gets both contributions.
     *
     * @param lo    first subscript
     * @param hi    last
     * @param buf   data
     * @param ld    leading dimensions
     * @param alpha scale
     */
    public void periodicAcc(final int[] lo, final int[] hi, final Object buf, final int[] ld, final double alpha) {
        sections.periodic(Mover.ACC, lo, hi, buf, ld, Math.round(alpha), alpha);
    }
}
