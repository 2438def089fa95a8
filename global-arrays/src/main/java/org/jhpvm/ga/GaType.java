package org.jhpvm.ga;

/** Element types of global arrays (GA's {@code C_INT}, {@code C_LONG}, {@code C_FLOAT}, {@code C_DBL}). */
public enum GaType {
    /** {@code int} elements. */
    INT("int", 4),
    /** {@code long} elements. */
    LONG("long", 8),
    /** {@code float} elements. */
    FLOAT("float", 4),
    /** {@code double} elements. */
    DOUBLE("double", 8);

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
     * @return bytes per element (4 or 8)
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

    Object newArray(final int n) {
        return switch (this) {
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    boolean matches(final Object buffer) {
        return switch (this) {
            case INT -> buffer instanceof int[];
            case LONG -> buffer instanceof long[];
            case FLOAT -> buffer instanceof float[];
            case DOUBLE -> buffer instanceof double[];
        };
    }

    static int length(final Object buffer) {
        return java.lang.reflect.Array.getLength(buffer);
    }
}
