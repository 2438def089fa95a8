package org.jhpvm.shmem;

/**
 * The atomic memory operations of {@link SymmetricInts} (OpenSHMEM's AMOs on int: fetch, set, swap, compare and
 * swap, fetch-and-increment and increment, fetch-and-add and add, and the bitwise and/or/xor, fetching or not).
 * Package-private: its public methods are {@code SymmetricInts}'s API. javac gives the public subclass a public
 * bridge for each of them, so callers and reflection see them on {@code SymmetricInts}, and javadoc documents them
 * there.
 * <p>
 * Each method checks its element and calls {@code engine.atomics.amo} itself rather than going through
 * {@code SymmetricArray.doAmo}: the bridge is one call level, and this keeps a remote atomic's chain (caller to
 * {@code AtomicOperations.amo}) as deep as it was when these methods were declared in {@code SymmetricInts}.
 * <p>
 * Thread-safety: use from the owning PE's thread.
 */
abstract sealed class IntAtomics extends SymmetricArray permits IntWaits {
    IntAtomics(final Shmem shmem, final int id, final int length) {
        super(shmem, id, Kind.INT, length);
    }

    /**
     * Atomic fetch.
     *
     * @param pe    target PE
     * @param index element
     * @return its value
     */
    public int atomicFetch(final int pe, final int index) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_FETCH, 0, 0, true);
    }

    /**
     * Atomic set.
     *
     * @param pe    target PE
     * @param index element
     * @param value new value
     */
    public void atomicSet(final int pe, final int index, final int value) {
        checkElement(pe, index);
        engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_SET, value, 0, false);
    }

    /**
     * Atomic swap.
     *
     * @param pe    target PE
     * @param index element
     * @param value new value
     * @return the old value
     */
    public int atomicSwap(final int pe, final int index, final int value) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_SWAP, value, 0, true);
    }

    /**
     * Atomic compare and swap: sets {@code value} if the element equals {@code cond}.
     *
     * @param pe    target PE
     * @param index element
     * @param cond cond
     * @param value value
     * @return the old value
     */
    public int atomicCompareSwap(final int pe, final int index, final int cond, final int value) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_CSWAP, value, cond, true);
    }

    /**
     * Atomic fetch and increment.
     *
     * @param pe    target PE
     * @param index element
     * @return the old value
     */
    public int atomicFetchInc(final int pe, final int index) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_ADD, 1, 0, true);
    }

    /**
     * Atomic increment.
     *
     * @param pe    target PE
     * @param index element
     */
    public void atomicInc(final int pe, final int index) {
        checkElement(pe, index);
        engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_ADD, 1, 0, false);
    }

    /**
     * Atomic fetch and add.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     * @return the old value
     */
    public int atomicFetchAdd(final int pe, final int index, final int value) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_ADD, value, 0, true);
    }

    /**
     * Atomic add.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     */
    public void atomicAdd(final int pe, final int index, final int value) {
        checkElement(pe, index);
        engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_ADD, value, 0, false);
    }

    /**
     * Atomic fetch and bitwise and.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     * @return the old value
     */
    public int atomicFetchAnd(final int pe, final int index, final int value) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_AND, value, 0, true);
    }

    /**
     * Atomic bitwise and.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     */
    public void atomicAnd(final int pe, final int index, final int value) {
        checkElement(pe, index);
        engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_AND, value, 0, false);
    }

    /**
     * Atomic fetch and bitwise or.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     * @return the old value
     */
    public int atomicFetchOr(final int pe, final int index, final int value) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_OR, value, 0, true);
    }

    /**
     * Atomic bitwise or.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     */
    public void atomicOr(final int pe, final int index, final int value) {
        checkElement(pe, index);
        engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_OR, value, 0, false);
    }

    /**
     * Atomic fetch and bitwise xor.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     * @return the old value
     */
    public int atomicFetchXor(final int pe, final int index, final int value) {
        checkElement(pe, index);
        return (int) engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_XOR, value, 0, true);
    }

    /**
     * Atomic bitwise xor.
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     */
    public void atomicXor(final int pe, final int index, final int value) {
        checkElement(pe, index);
        engine.atomics.amo(this, worldPe(pe), index, MessageDescriptor.AMO_XOR, value, 0, false);
    }

    // ---------------------------------------------------------------- non-blocking fetching atomics (1.5)

    /**
     * {@code shmem_atomic_fetch_nbi}: starts an atomic fetch of element {@code index} of PE {@code pe}; its value
     * is stored in {@code fetch[fetchIndex]} by the next quiet of the context in use ({@link Shmem#quiet()}, or
     * {@link ShmemCtx#quiet()} inside {@link ShmemCtx#use()}). Until then {@code fetch[fetchIndex]} must not be
     * read or written.
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @throws IndexOutOfBoundsException if {@code pe}, {@code index} or {@code fetchIndex} is out of range (nothing
     *                                   is sent)
     */
    public void atomicFetchNbi(final int[] fetch, final int fetchIndex, final int pe, final int index) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_FETCH, 0, 0);
    }

    /**
     * {@code shmem_atomic_swap_nbi}: as {@link #atomicSwap}, the old value stored in {@code fetch[fetchIndex]} by
     * the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param value      new value
     */
    public void atomicSwapNbi(final int[] fetch, final int fetchIndex, final int pe, final int index,
        final int value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_SWAP, value, 0);
    }

    /**
     * {@code shmem_atomic_compare_swap_nbi}: as {@link #atomicCompareSwap}, the old value stored in
     * {@code fetch[fetchIndex]} by the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param cond       the value the element must hold for the swap
     * @param value      new value
     */
    public void atomicCompareSwapNbi(final int[] fetch, final int fetchIndex, final int pe, final int index,
        final int cond, final int value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_CSWAP, value, cond);
    }

    /**
     * {@code shmem_atomic_fetch_inc_nbi}: as {@link #atomicFetchInc}, the old value stored in
     * {@code fetch[fetchIndex]} by the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     */
    public void atomicFetchIncNbi(final int[] fetch, final int fetchIndex, final int pe, final int index) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_ADD, 1, 0);
    }

    /**
     * {@code shmem_atomic_fetch_add_nbi}: as {@link #atomicFetchAdd}, the old value stored in
     * {@code fetch[fetchIndex]} by the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param value      added
     */
    public void atomicFetchAddNbi(final int[] fetch, final int fetchIndex, final int pe, final int index,
        final int value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_ADD, value, 0);
    }

    /**
     * {@code shmem_atomic_fetch_and_nbi}: as {@link #atomicFetchAnd}, the old value stored in
     * {@code fetch[fetchIndex]} by the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param value      operand
     */
    public void atomicFetchAndNbi(final int[] fetch, final int fetchIndex, final int pe, final int index,
        final int value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_AND, value, 0);
    }

    /**
     * {@code shmem_atomic_fetch_or_nbi}: as {@link #atomicFetchOr}, the old value stored in
     * {@code fetch[fetchIndex]} by the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param value      operand
     */
    public void atomicFetchOrNbi(final int[] fetch, final int fetchIndex, final int pe, final int index,
        final int value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_OR, value, 0);
    }

    /**
     * {@code shmem_atomic_fetch_xor_nbi}: as {@link #atomicFetchXor}, the old value stored in
     * {@code fetch[fetchIndex]} by the next quiet (see {@link #atomicFetchNbi}).
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param value      operand
     */
    public void atomicFetchXorNbi(final int[] fetch, final int fetchIndex, final int pe, final int index,
        final int value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_XOR, value, 0);
    }
}
