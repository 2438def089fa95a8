package org.jhpvm.ga;

/** Operations of {@link GlobalArrays#gop}: GA's {@code "+"}, {@code "*"}, {@code "max"}, {@code "min"},
 * {@code "absmax"}, {@code "absmin"}. */
public enum GopOp {
    /** Sum. */
    SUM,
    /** Product. */
    PROD,
    /** Maximum. */
    MAX,
    /** Minimum. */
    MIN,
    /** Maximum of absolute values. */
    ABSMAX,
    /** Minimum of absolute values. */
    ABSMIN
}
