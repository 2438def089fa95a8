package org.jhpvm.hydro;

import java.util.Locale;

/**
 * The coordinates of the grid ({@code jhpvm hydro --geometry}). The first coordinate of a curvilinear grid is the
 * radius: cylindrical (r, z, phi), spherical (r, theta, phi). A 1-D cylindrical grid is the radius of a line
 * symmetric about its axis (per unit length), a 2-D one the (r, z) plane of a flow symmetric about the z axis, a 1-D
 * spherical grid the radius of a point-symmetric flow over the whole sphere, a 2-D one the (r, theta) meridional
 * plane of a flow symmetric about the axis theta = 0 ({@link TransverseGrid}); a 3-D grid adds the azimuth phi.
 */
public enum Geometry {
    /** x, y, z. */
    CARTESIAN,
    /** r, z, phi: the area of a radius-r face grows as r, a zone's volume as r^2 ({@code 2 pi r} per unit length). */
    CYLINDRICAL,
    /** r, theta, phi: the area of a radius-r face grows as r^2, a zone's volume as r^3 ({@code 4 pi r^2}). */
    SPHERICAL;

    /**
     * The name the command line and input decks use.
     *
     * @return {@code cartesian}, {@code cylindrical} or {@code spherical}
     */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The geometry of a command-line or deck value.
     *
     * @param key {@code cartesian}, {@code cylindrical} or {@code spherical}
     * @return the geometry
     * @throws IllegalArgumentException for any other value
     */
    public static Geometry of(final String key) {
        for (final Geometry g : values()) {
            if (g.key().equals(key)) {
                return g;
            }
        }
        throw new IllegalArgumentException("--geometry " + key + ": cartesian, cylindrical or spherical");
    }

    /**
     * The area of a face of the first coordinate at {@code x}, over the whole turn about the axis or the centre
     * (per unit length of the other coordinates). Ghost zones beyond the origin mirror it.
     *
     * @param x the face's first coordinate
     * @return 1, {@code 2 pi |x|} or {@code 4 pi x^2}
     */
    double area(final double x) {
        return switch (this) {
            case CARTESIAN -> 1;
            case CYLINDRICAL -> 2 * Math.PI * Math.abs(x);
            case SPHERICAL -> 4 * Math.PI * x * x;
        };
    }

    /**
     * The volume between two values of the first coordinate (for a 1-D grid, as {@link #area}); positive whatever
     * their order or sign, so that ghost zones beyond the origin mirror the zones inside it.
     *
     * @param a one end
     * @param b the other end
     * @return the volume
     */
    double volume(final double a, final double b) {
        return switch (this) {
            case CARTESIAN -> Math.abs(b - a);
            case CYLINDRICAL -> Math.PI * Math.abs(b * Math.abs(b) - a * Math.abs(a));
            case SPHERICAL -> 4 * Math.PI / 3 * Math.abs(b * b * b - a * a * a);
        };
    }
}
