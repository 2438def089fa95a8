package org.jhpvm.shmem;

/** Comparison operators of the point-to-point synchronisation routines ({@code SHMEM_CMP_*}). */
public enum Cmp {
    /** equal */
    EQ,
    /** not equal */
    NE,
    /** greater than */
    GT,
    /** greater than or equal */
    GE,
    /** less than */
    LT,
    /** less than or equal */
    LE;

    /**
     * Applies this operator as the wait and test routines do: {@code a} is the symmetric element, {@code b} the
     * caller's value, both as signed longs (an int element and value are widened first, so the order is signed).
     *
     * @param a the variable's value
     * @param b the value compared against
     * @return {@code a OP b}
     */
    public boolean test(final long a, final long b) {
        return switch (this) {
            case EQ -> a == b;
            case NE -> a != b;
            case GT -> a > b;
            case GE -> a >= b;
            case LT -> a < b;
            case LE -> a <= b;
        };
    }
}
