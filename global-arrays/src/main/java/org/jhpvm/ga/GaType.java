package org.jhpvm.ga;

/**
 * Element types of global arrays (GA's {@code C_INT}, {@code C_LONG}, {@code C_FLOAT}, {@code C_DBL}, {@code C_SCPL},
 * {@code C_DCPL}). A complex element is a (real, imaginary) pair: in Java buffers, and in the array's memory, two
 * consecutive floats ({@link #SCPL}) or doubles ({@link #DCPL}), so a buffer of {@code n} complex elements is a
 * {@code float[]} or {@code double[]} of {@code 2n}, element {@code i} at {@code 2i} (real) and {@code 2i+1}.
 */
public enum GaType {
    /** {@code int} elements. */
    INT("int", 4),
    /** {@code long} elements. */
    LONG("long", 8),
    /** {@code float} elements. */
    FLOAT("float", 4),
    /** {@code double} elements. */
    DOUBLE("double", 8),
    /** Single-precision complex elements ({@code SingleComplex}): pairs of floats. */
    SCPL("float", 8),
    /** Double-precision complex elements ({@code DoubleComplex}): pairs of doubles. */
    DCPL("double", 16);

    private final String javaName;
    private final int bytes;

    GaType(final String javaName, final int bytes) {
        this.javaName = javaName;
        this.bytes = bytes;
    }

    /**
     * The name of the Java primitive type that holds this type's elements, as error messages print it.
     *
     * @return the Java element type's name ({@code "int"}, {@code "long"}, {@code "float"} or {@code "double"})
     */
    public String javaName() {
        return javaName;
    }

    /**
     * The size of one element, as GA's {@code GA_Summarize} counts an array's memory.
     *
     * @return bytes per element (4, 8 or, for DCPL, 16)
     */
    public int bytes() {
        return bytes;
    }

    /**
     * Whether the algebra computes in floating point for this type (integer types compute in long arithmetic and take
     * only integer scalars).
     *
     * @return true for FLOAT and DOUBLE
     */
    public boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }

    /**
     * Whether the elements are complex (SCPL, DCPL).
     *
     * @return true for SCPL and DCPL
     */
    public boolean isComplex() {
        return this == SCPL || this == DCPL;
    }

    /**
     * Java array slots per element: 2 for the complex types (real and imaginary parts), 1 for the others.
     *
     * @return 1 or 2
     */
    public int width() {
        return isComplex() ? 2 : 1;
    }

    /** A buffer of {@code n} elements (2n slots for the complex types). */
    Object newArray(final int n) {
        return switch (this) {
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            case SCPL -> new float[Math.multiplyExact(2, n)];
            case DCPL -> new double[Math.multiplyExact(2, n)];
        };
    }

    boolean matches(final Object buffer) {
        return switch (this) {
            case INT -> buffer instanceof int[];
            case LONG -> buffer instanceof long[];
            case FLOAT, SCPL -> buffer instanceof float[];
            case DOUBLE, DCPL -> buffer instanceof double[];
        };
    }

    /** The whole elements a buffer of this type holds (its slots over {@link #width()}). */
    int elements(final Object buffer) {
        return length(buffer) / width();
    }

    static int length(final Object buffer) {
        return java.lang.reflect.Array.getLength(buffer);
    }
}
