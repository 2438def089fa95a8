package org.jhpvm.shmem;

/**
 * A symmetric array of double: one plain {@code double[]} per PE ({@link #local()}), reached from every PE by puts,
 * gets and collectives. Indices count elements. Every method checks its PE, indices and buffers before anything is
 * sent: {@link IndexOutOfBoundsException} for a PE or index out of range, {@link IllegalArgumentException} for a bad
 * count or stride, {@link IllegalStateException} for a freed object.
 * <p>
 * Completion: a put returns when {@code src} may be reused; it is visible at the target after {@link Shmem#quiet()}
 * (or a barrier). Puts to one PE arrive in order. A get returns with the data.
 * <p>
 * Thread-safety: use from the owning PE's thread.
 */
public final class SymmetricDoubles extends SymmetricArray {
    SymmetricDoubles(final Shmem shmem, final int id, final int length) {
        super(shmem, id, Kind.DOUBLE, length);
    }

    /**
     * This PE's part of the object: the array that other PEs' puts, atomics, accumulates and collectives write into,
     * the same array for the object's whole life. Loads and stores on it are plain local accesses: a load sees another
     * PE's update once a synchronisation orders it first (a barrier after the writer's put, say); a store races with
     * remote writes to the same element and is not atomic with respect to remote atomics on it.
     *
     * @return this PE's part: a plain array others write into by remote operations
     */
    public double[] local() {
        return (double[]) array;
    }

    /**
     * {@code shmem_ptr}: PE {@code pe}'s part for direct loads and stores (every PE of a job shares this JVM).
     * Direct stores bypass SHMEM ordering: synchronise (barrier, or a flag by put with signal) before and after.
     *
     * @param pe a PE of the job
     * @return its array, or null if it is not accessible
     */
    public double[] ptr(final int pe) {
        return (double[]) peer(pe);
    }

    /**
     * Contiguous put: {@code count} elements of {@code src} from {@code srcIndex} to PE {@code pe}'s part from
     * {@code dstIndex}.
     *
     * @param pe       target PE
     * @param dstIndex first element at the target
     * @param src      source array
     * @param srcIndex first source element
     * @param count    elements
     */
    public void put(final int pe, final int dstIndex, final double[] src, final int srcIndex, final int count) {
        doPut(pe, dstIndex, 1, src, srcIndex, 1, count);
    }

    /**
     * Non-blocking put ({@code put_nbi}): complete at the next {@link Shmem#quiet()}. (The data is copied into
     * FM frames before it returns, so {@code src} may be reused at once.)
     *
     * @param pe       target PE
     * @param dstIndex first element at the target
     * @param src      source array
     * @param srcIndex first source element
     * @param count    elements
     */
    public void putNbi(final int pe, final int dstIndex, final double[] src, final int srcIndex, final int count) {
        doPut(pe, dstIndex, 1, src, srcIndex, 1, count);
    }

    /**
     * Strided put ({@code iput}): {@code dst[dstIndex + k*dstStride] = src[srcIndex + k*srcStride]} at PE
     * {@code pe} for {@code k < count}; strides count elements, at least 1.
     *
     * @param pe        target PE
     * @param dstIndex  first element at the target
     * @param dstStride target stride
     * @param src       source array
     * @param srcIndex  first source element
     * @param srcStride source stride
     * @param count     elements
     */
    public void iput(final int pe, final int dstIndex, final int dstStride, final double[] src, final int srcIndex,
        final int srcStride, final int count) {
        doPut(pe, dstIndex, dstStride, src, srcIndex, srcStride, count);
    }

    /**
     * Block-strided put ({@code ibput}, OpenSHMEM 1.6): {@code nblocks} blocks of {@code blockSize} contiguous
     * elements; block {@code b} goes from {@code src[srcIndex + b*srcStride ..]} to {@code dst[dstIndex +
     * b*dstStride ..]} at PE {@code pe}. Small blocks travel together, as many per NIC message as a
     * frame holds (a 2-D patch in few messages); blocks of 8 KiB or more go by RDMA, one write each.
     *
     * @param pe        target PE
     * @param dstIndex  first element at the target
     * @param dstStride distance between target block starts, at least 1
     * @param src       source array
     * @param srcIndex  first source element
     * @param srcStride distance between source block starts, at least 1
     * @param blockSize elements per block, at least 1
     * @param nblocks   blocks
     */
    public void ibput(final int pe, final int dstIndex, final int dstStride, final double[] src, final int srcIndex,
        final int srcStride, final int blockSize, final int nblocks) {
        // Checks and the engine call inline (no doIbPut level): Global Arrays calls this at the top of a deep chain.
        checkBlocks(pe, dstIndex, dstStride, src, srcIndex, srcStride, blockSize, nblocks);
        engine.rma.put(this, worldPe(pe), dstIndex, dstStride, src, srcIndex, srcStride, nblocks, blockSize);
    }

    /**
     * Block-strided get ({@code ibget}, OpenSHMEM 1.6): the inverse of {@link #ibput}.
     *
     * @param pe        source PE
     * @param srcIndex  first element there
     * @param srcStride distance between source block starts there
     * @param dst       destination array
     * @param dstIndex  first destination element
     * @param dstStride distance between destination block starts
     * @param blockSize elements per block
     * @param nblocks   blocks
     */
    public void ibget(final int pe, final int srcIndex, final int srcStride, final double[] dst, final int dstIndex,
        final int dstStride, final int blockSize, final int nblocks) {
        checkBlocks(pe, srcIndex, srcStride, dst, dstIndex, dstStride, blockSize, nblocks);
        engine.rma.get(this, worldPe(pe), srcIndex, srcStride, dst, dstIndex, dstStride, nblocks, blockSize, false);
    }

    /**
     * Non-blocking {@link #ibget} (a jhpvm extension in the manner of {@code get_nbi}): {@code dst} holds the data
     * after the next {@link Shmem#quiet()}.
     *
     * @param pe        source PE
     * @param srcIndex  first element there
     * @param srcStride distance between source block starts there
     * @param dst       destination array
     * @param dstIndex  first destination element
     * @param dstStride distance between destination block starts
     * @param blockSize elements per block
     * @param nblocks   blocks
     */
    public void ibgetNbi(final int pe, final int srcIndex, final int srcStride, final double[] dst, final int dstIndex,
        final int dstStride, final int blockSize, final int nblocks) {
        checkBlocks(pe, srcIndex, srcStride, dst, dstIndex, dstStride, blockSize, nblocks);
        engine.rma.get(this, worldPe(pe), srcIndex, srcStride, dst, dstIndex, dstStride, nblocks, blockSize, true);
    }

    /**
     * Block-strided accumulate (as {@link #ibput}, adding {@code alpha} times the source), atomic per element with
     * respect to every other accumulate.
     *
     * @param pe        target PE
     * @param dstIndex  first element at the target
     * @param dstStride distance between target block starts
     * @param src       source array
     * @param srcIndex  first source element
     * @param srcStride distance between source block starts
     * @param blockSize elements per block
     * @param nblocks   blocks
     * @param alpha     scale
     */
    public void ibacc(final int pe, final int dstIndex, final int dstStride, final double[] src, final int srcIndex,
        final int srcStride, final int blockSize, final int nblocks, final double alpha) {
        checkBlocks(pe, dstIndex, dstStride, src, srcIndex, srcStride, blockSize, nblocks);
        engine.accumulates.acc(this, worldPe(pe), dstIndex, dstStride, src, srcIndex, srcStride, nblocks, blockSize,
            Double.doubleToRawLongBits(alpha));
    }

    /**
     * Single-element put ({@code p}).
     *
     * @param pe    target PE
     * @param index element
     * @param value value
     */
    public void p(final int pe, final int index, final double value) {
        checkElement(pe, index);
        if (worldPe(pe) == engine.me) {
            engine.enter();
            try {
                kind.setBits(array, index, Double.doubleToRawLongBits(value));
            } finally {
                engine.exit();
            }
            return;
        }
        // Typed on purpose (a plain store into the scratch): see the note after SymmetricArray.doGet.
        final double[] one = (double[]) engine.one(kind);
        one[0] = value;
        engine.rma.put(this, worldPe(pe), index, 1, one, 0, 1, 1);
    }

    /**
     * Contiguous get: {@code count} elements of PE {@code pe}'s part from {@code srcIndex} into {@code dst}.
     *
     * @param pe       source PE
     * @param srcIndex first element there
     * @param dst      destination array
     * @param dstIndex first destination element
     * @param count    elements
     */
    public void get(final int pe, final int srcIndex, final double[] dst, final int dstIndex, final int count) {
        doGet(pe, srcIndex, 1, dst, dstIndex, 1, count, false);
    }

    /**
     * Non-blocking get ({@code get_nbi}): {@code dst} holds the data after the next {@link Shmem#quiet()}.
     *
     * @param pe       source PE
     * @param srcIndex first element there
     * @param dst      destination array
     * @param dstIndex first destination element
     * @param count    elements
     */
    public void getNbi(final int pe, final int srcIndex, final double[] dst, final int dstIndex, final int count) {
        doGet(pe, srcIndex, 1, dst, dstIndex, 1, count, true);
    }

    /**
     * Strided get ({@code iget}): {@code dst[dstIndex + k*dstStride] = src[srcIndex + k*srcStride]} of PE
     * {@code pe}.
     *
     * @param pe        source PE
     * @param srcIndex  first element there
     * @param srcStride its stride
     * @param dst       destination array
     * @param dstIndex  first destination element
     * @param dstStride destination stride
     * @param count     elements
     */
    public void iget(final int pe, final int srcIndex, final int srcStride, final double[] dst, final int dstIndex,
        final int dstStride, final int count) {
        doGet(pe, srcIndex, srcStride, dst, dstIndex, dstStride, count, false);
    }

    /**
     * Single-element get ({@code g}).
     *
     * @param pe    source PE
     * @param index element
     * @return its value
     */
    public double g(final int pe, final int index) {
        checkElement(pe, index);
        if (worldPe(pe) == engine.me) {
            engine.enter();
            try {
                engine.pollIfVirtual(); // a spin on its own memory serves others' puts in virtual time
                return Double.longBitsToDouble(kind.getBits(array, index));
            } finally {
                engine.exit();
            }
        }
        final double[] one = (double[]) engine.one(kind);
        engine.rma.get(this, worldPe(pe), index, 1, one, 0, 1, 1, false);
        return one[0];
    }

    /**
     * Put with signal ({@code put_signal}): the data, then the signal update: one NIC message when the data fits a
     * frame, else an RDMA write of the data completed before the signal is sent; either way a PE that sees the signal
     * sees the data.
     *
     * @param pe       target PE
     * @param dstIndex first element at the target
     * @param src      source array
     * @param srcIndex first source element
     * @param count    elements
     * @param sig      the symmetric signal array
     * @param sigIndex its element
     * @param signal   value to set or add
     * @param op       {@link SignalOp#SET} or {@link SignalOp#ADD}
     */
    public void putSignal(final int pe, final int dstIndex, final double[] src, final int srcIndex, final int count,
        final SymmetricLongs sig, final int sigIndex, final long signal, final SignalOp op) {
        doPutSignal(pe, dstIndex, (Object) src, srcIndex, count, sig, sigIndex, signal, op);
    }

    /**
     * {@code shmem_put_signal_nbi}: as {@link #putSignal}, but may return before the data and the signal are
     * delivered; {@code src} may be reused, and both are delivered, after the next quiet of the context in use.
     * Here the data of up to a frame travels with the signal in one NIC message and the call returns once the NIC
     * has it; larger data is written by RDMA first and the signal sent when that write completes, which this call
     * waits for (the signal must never overtake its data), so it returns later than a non-blocking call could.
     *
     * @param pe       target PE
     * @param dstIndex first element at the target
     * @param src      source array
     * @param srcIndex first source element
     * @param count    elements
     * @param sig      the symmetric signal array
     * @param sigIndex its element
     * @param signal   value to set or add
     * @param op       {@link SignalOp#SET} or {@link SignalOp#ADD}
     */
    public void putSignalNbi(final int pe, final int dstIndex, final double[] src, final int srcIndex, final int count,
        final SymmetricLongs sig, final int sigIndex, final long signal, final SignalOp op) {
        doPutSignal(pe, dstIndex, (Object) src, srcIndex, count, sig, sigIndex, signal, op);
    }

    /**
     * Team broadcast: {@code count} elements of the root's {@code src} into every team member's part from
     * {@code dstIndex}, the root's included (OpenSHMEM 1.5). A binomial tree: each PE forwards to at most
     * log2(n) others. Every member calls it with the same count and root.
     *
     * @param team     the team
     * @param dstIndex first element of this object on every member
     * @param src      the root's source (ignored elsewhere, may be null there)
     * @param srcIndex first source element
     * @param count    elements
     * @param root     the root's rank in the team
     */
    public void broadcast(final ShmemTeam team, final int dstIndex, final double[] src, final int srcIndex,
        final int count, final int root) {
        shmem.collectives.broadcast(team, this, dstIndex, src, srcIndex, count, root);
    }

    /**
     * Team fcollect: every member contributes {@code count} elements; all receive the concatenation in team rank
     * order from {@code dstIndex} (Bruck's dissemination allgather: ceil(log2 n) rounds).
     *
     * @param team     the team
     * @param dstIndex first element of this object
     * @param src      this PE's contribution
     * @param srcIndex its first element
     * @param count    elements per member, the same on all
     */
    public void fcollect(final ShmemTeam team, final int dstIndex, final double[] src, final int srcIndex,
        final int count) {
        shmem.collectives.collect(team, this, dstIndex, src, srcIndex, count, true);
    }

    /**
     * Team collect: as {@link #fcollect}, but each member may contribute a different count.
     *
     * @param team     the team
     * @param dstIndex first element of this object
     * @param src      this PE's contribution
     * @param srcIndex its first element
     * @param count    this PE's element count
     */
    public void collect(final ShmemTeam team, final int dstIndex, final double[] src, final int srcIndex,
        final int count) {
        shmem.collectives.collect(team, this, dstIndex, src, srcIndex, count, false);
    }

    /**
     * Team alltoall: block {@code j} of {@code src} ({@code count} elements from {@code srcIndex + j*count}) goes
     * to member {@code j}'s part at {@code dstIndex + myRank*count}.
     *
     * @param team     the team
     * @param dstIndex first element of this object
     * @param src      n blocks
     * @param srcIndex first element of block 0
     * @param count    elements per block
     */
    public void alltoall(final ShmemTeam team, final int dstIndex, final double[] src, final int srcIndex,
        final int count) {
        shmem.collectives.alltoall(team, this, dstIndex, 1, src, srcIndex, 1, count);
    }

    /**
     * Team alltoalls (strided alltoall): element {@code i} of block {@code j} is
     * {@code src[srcIndex + (j*count + i)*sst]} and lands at member {@code j}'s
     * {@code dstIndex + (myRank*count + i)*dst}.
     *
     * @param team     the team
     * @param dstIndex first element of this object
     * @param dst      destination stride, at least 1
     * @param src      source array
     * @param srcIndex first source element
     * @param sst      source stride, at least 1
     * @param count    elements per block
     */
    public void alltoalls(final ShmemTeam team, final int dstIndex, final int dst, final double[] src,
        final int srcIndex, final int sst, final int count) {
        shmem.collectives.alltoall(team, this, dstIndex, dst, src, srcIndex, sst, count);
    }

    /**
     * Accumulate (an ARMCI/ComEx extension GA needs): {@code dst[dstIndex+k] += alpha * src[srcIndex+k]} at PE
     * {@code pe}, each element atomic with respect to other accumulates (all of a PE's incoming accumulates are
     * applied one at a time). Complete at the next {@link Shmem#quiet()}.
     *
     * @param pe       target PE
     * @param dstIndex first element at the target
     * @param src      source array
     * @param srcIndex first source element
     * @param count    elements
     * @param alpha    scale
     */
    public void acc(final int pe, final int dstIndex, final double[] src, final int srcIndex, final int count,
        final double alpha) {
        doAcc(pe, dstIndex, 1, src, srcIndex, 1, count, Double.doubleToRawLongBits(alpha));
    }

    /**
     * Strided accumulate: {@code dst[dstIndex + k*dstStride] += alpha * src[srcIndex + k*srcStride]} at PE {@code pe}.
     *
     * @param pe        target PE
     * @param dstIndex  first element at the target
     * @param dstStride target stride
     * @param src       source array
     * @param srcIndex  first source element
     * @param srcStride source stride
     * @param count     elements
     * @param alpha     scale
     */
    public void acc(final int pe, final int dstIndex, final int dstStride, final double[] src, final int srcIndex,
        final int srcStride, final int count, final double alpha) {
        doAcc(pe, dstIndex, dstStride, src, srcIndex, srcStride, count, Double.doubleToRawLongBits(alpha));
    }

    /**
     * Atomic fetch.
     *
     * @param pe    target PE
     * @param index element
     * @return its value
     */
    public double atomicFetch(final int pe, final int index) {
        return Double.longBitsToDouble(doAmo(pe, index, MessageDescriptor.AMO_FETCH, 0, 0, true));
    }

    /**
     * Atomic set.
     *
     * @param pe    target PE
     * @param index element
     * @param value new value
     */
    public void atomicSet(final int pe, final int index, final double value) {
        doAmo(pe, index, MessageDescriptor.AMO_SET, Double.doubleToRawLongBits(value), 0, false);
    }

    /**
     * Atomic swap.
     *
     * @param pe    target PE
     * @param index element
     * @param value new value
     * @return the old value
     */
    public double atomicSwap(final int pe, final int index, final double value) {
        return Double.longBitsToDouble(doAmo(pe, index, MessageDescriptor.AMO_SWAP, Double.doubleToRawLongBits(value),
            0, true));
    }

    /**
     * {@code shmem_atomic_fetch_nbi}: starts an atomic fetch of element {@code index} of PE {@code pe}; its value
     * is stored in {@code fetch[fetchIndex]} by the next quiet of the context in use.
     *
     * @param fetch      where the value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     */
    public void atomicFetchNbi(final double[] fetch, final int fetchIndex, final int pe, final int index) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_FETCH, 0, 0);
    }

    /**
     * {@code shmem_atomic_swap_nbi}: as {@link #atomicSwap}, the old value stored in {@code fetch[fetchIndex]} by
     * the next quiet of the context in use.
     *
     * @param fetch      where the old value goes
     * @param fetchIndex its element
     * @param pe         target PE
     * @param index      element
     * @param value      new value
     */
    public void atomicSwapNbi(final double[] fetch, final int fetchIndex, final int pe, final int index,
        final double value) {
        doAmoNbi(fetch, fetchIndex, pe, index, MessageDescriptor.AMO_SWAP, Double.doubleToRawLongBits(value), 0);
    }
}
