package org.jhpvm.shmem;

/** How a put-with-signal updates its signal ({@code SHMEM_SIGNAL_SET}, {@code SHMEM_SIGNAL_ADD}). */
public enum SignalOp {
    /** the signal becomes the value */
    SET,
    /** the value is added to the signal */
    ADD
}
