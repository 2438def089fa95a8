package org.jhpvm.shmem;

/**
 * Reduction operators of the team reductions. AND, OR and XOR are defined on the integer types only (byte, int,
 * long), as OpenSHMEM defines them on integer types only; MAX, MIN, SUM and PROD on every type.
 */
public enum ReduceOp {
    /** bitwise and */
    AND,
    /** bitwise or */
    OR,
    /** bitwise exclusive or */
    XOR,
    /** maximum */
    MAX,
    /** minimum */
    MIN,
    /** sum */
    SUM,
    /** product */
    PROD;

    boolean bitwise() {
        return this == AND || this == OR || this == XOR;
    }
}
