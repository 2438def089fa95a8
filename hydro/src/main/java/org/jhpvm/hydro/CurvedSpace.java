package org.jhpvm.hydro;

/**
 * Where the points and vectors of a curvilinear or ratioed grid lie in the space ParaView shows: the Cartesian
 * position of a grid point and the Cartesian components of a velocity given along the grid's coordinates.
 * Cartesian: (x, y, z) as they are. Cylindrical: (r, z) is the plane x = r, y = z; (r, z, phi) is
 * {@code (r cos phi, r sin phi, z)}. Spherical: (r, theta) is the meridional plane {@code x = r sin theta},
 * {@code y = r cos theta} (the axis along y); (r, theta, phi) is
 * {@code (r sin theta cos phi, r sin theta sin phi, r cos theta)} (the axis along z).
 */
final class CurvedSpace {
    private CurvedSpace() {
    }

    /**
     * The Cartesian position of the point with grid coordinates u.
     *
     * @param geo  the grid's coordinates
     * @param dims the grid's dimensions
     * @param u    the point's coordinates, one per dimension
     * @param out  receives x, y, z at {@code at}
     * @param at   where in {@code out}
     */
    static void point(final Geometry geo, final int dims, final double[] u, final double[] out, final int at) {
        turn(geo, dims, u, u[0], dims > 1 && geo != Geometry.SPHERICAL ? u[1] : 0, dims > 2 && geo ==
            Geometry.CARTESIAN ? u[2] : 0, out, at, true);
    }

    /**
     * The Cartesian components of a vector given along the grid's coordinates at the point with grid coordinates
     * u (angles only matter).
     *
     * @param geo  the grid's coordinates
     * @param dims the grid's dimensions
     * @param u    the point's coordinates
     * @param v    the vector's components along the grid's coordinates (0 beyond dims)
     * @param out  receives its x, y, z components at {@code at}
     * @param at   where in {@code out}
     */
    static void vector(final Geometry geo, final int dims, final double[] u, final double[] v, final double[] out,
        final int at) {
        turn(geo, dims, u, v[0], dims > 1 ? v[1] : 0, dims > 2 ? v[2] : 0, out, at, false);
    }

    /**
     * A point (a = its radius or x, b the second coordinate of a non-angular kind, c the third) or a vector (a, b,
     * c its components along the grid's coordinates) in Cartesian components.
     */
    private static void turn(final Geometry geo, final int dims, final double[] u, final double a, final double b,
        final double c, final double[] out, final int at, final boolean point) {
        double x = a;
        double y = b;
        double z = c;
        if (geo == Geometry.CYLINDRICAL && dims == 3) {
            final double cp = Math.cos(u[2]);
            final double sp = Math.sin(u[2]);
            // A point (r, z, phi): b is z; a vector (v_r, v_z, v_phi): b is v_z, c is v_phi.
            x = point ? a * cp : a * cp - c * sp;
            y = point ? a * sp : a * sp + c * cp;
            z = b;
        } else if (geo == Geometry.SPHERICAL && dims >= 2) {
            final double st = Math.sin(u[1]);
            final double ct = Math.cos(u[1]);
            // A point is a r-hat; a vector a r-hat + b theta-hat + c phi-hat.
            final double vt = point ? 0 : b;
            final double vp = point ? 0 : c;
            if (dims == 2) {
                x = a * st + vt * ct;
                y = a * ct - vt * st;
                z = 0;
            } else {
                final double cp = Math.cos(u[2]);
                final double sp = Math.sin(u[2]);
                x = a * st * cp + vt * ct * cp - vp * sp;
                y = a * st * sp + vt * ct * sp + vp * cp;
                z = a * ct - vt * st;
            }
        }
        out[at] = x;
        out[at + 1] = y;
        out[at + 2] = z;
    }
}
