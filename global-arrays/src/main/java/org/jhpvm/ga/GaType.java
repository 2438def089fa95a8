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

    /** @return the Java element type's name */
    public String javaName() {
        return javaName;
    }

    /** @return bytes per element */
    public int bytes() {
        return bytes;
    }

    /** @return true for FLOAT and DOUBLE */
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
