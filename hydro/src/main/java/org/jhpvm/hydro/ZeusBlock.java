package org.jhpvm.hydro;

/**
 * One PE's block of the ZEUS fields and where it lies in the grid: the PE's {@code double[]} of every field (ghost
 * layers included), the field stride, and per slot the block's zone range, ghost width, stride, the grid's zone count
 * and the zone width; plus the zone arithmetic every kernel uses (index, centre, boundary faces). The solver's steps
 * extend it so that their loops read these as final fields of their own, loaded from {@code this}, rather than
 * through another object.
 */
class ZeusBlock {
    final HydroConfig cfg;
    final int dims;
    final double gamma;
    /** Whether the solver evolves total energy ({@link EnergyScheme#TOTAL}). */
    final boolean total;
    /** Under the total-energy scheme the offset in {@link #a} of the dual-energy field, else -1. */
    final int xb;
    /**
     * The offset of the field the internal-energy equation's heating terms work on: the energy field, or under the
     * total-energy scheme the separately evolved internal energy in the dual-energy field.
     */
    final int hb;
    final double[] a;
    final int sF;
    final boolean owns;
    // Per slot 0..2 (slot = dir + 3 - dims; the last slot is the contiguous one); unused slots are [0,0], stride 0.
    final int[] lo;
    final int[] hi;
    final int[] gw;
    final int[] st;
    final int[] n;
    final double[] dx;

    /**
     * @param cfg     the problem's grid, gas and boundaries
     * @param a       this PE's fields array, {@code [fields, zones...]} row-major ({@link HydroConfig#fields})
     *                with {@link ZeusSolver#GHOST} ghost layers in each spatial dimension (never split along the
     *                fields)
     * @param strides the array's stride per dimension (the field dimension first)
     * @param blo     the block's first zone per dimension (the field dimension first, 0)
     * @param bhi     the block's last zone per dimension
     * @param owns    whether the block holds any zone (a PE may be left without one)
     */
    ZeusBlock(final HydroConfig cfg, final double[] a, final int[] strides, final int[] blo, final int[] bhi,
        final boolean owns) {
        this.cfg = cfg;
        this.dims = cfg.dims();
        this.gamma = cfg.gamma();
        this.total = cfg.energy() == EnergyScheme.TOTAL;
        this.a = a;
        this.owns = owns;
        this.sF = strides[0];
        this.xb = total ? ZeusSolver.dualEnergyField(dims) * sF : -1;
        this.hb = total ? xb : ZeusSolver.E * sF;
        this.lo = new int[3];
        this.hi = new int[3];
        this.gw = new int[3];
        this.st = new int[3];
        this.n = new int[3];
        this.dx = new double[3];
        for (int s = 0; s < 3; s++) {
            final int d = s - (3 - dims);
            if (d >= 0) {
                lo[s] = blo[d + 1];
                hi[s] = bhi[d + 1];
                gw[s] = ZeusSolver.GHOST;
                st[s] = strides[d + 1];
                n[s] = cfg.zones()[d];
                dx[s] = (cfg.hi()[d] - cfg.lo()[d]) / cfg.zones()[d];
            } else {
                n[s] = 1;
                dx[s] = 1;
            }
        }
    }

    /** The same block (the same arrays), for a step that extends it. */
    ZeusBlock(final ZeusBlock b) {
        this.cfg = b.cfg;
        this.dims = b.dims;
        this.gamma = b.gamma;
        this.total = b.total;
        this.xb = b.xb;
        this.hb = b.hb;
        this.a = b.a;
        this.sF = b.sF;
        this.owns = b.owns;
        this.lo = b.lo;
        this.hi = b.hi;
        this.gw = b.gw;
        this.st = b.st;
        this.n = b.n;
        this.dx = b.dx;
    }

    /** Sets {@code x} to the centre of zone (i, j, k) (slot indices; one coordinate per dimension). */
    final void centre(final int i, final int j, final int k, final double[] x) {
        for (int d = 0; d < dims; d++) {
            final int s = d + 3 - dims;
            final int c = s == 0 ? i : s == 1 ? j : k;
            x[d] = d == 0 && !cfg.uniform() ? cfg.centre(0, c) : cfg.lo()[d] + (c + 0.5) * dx[s];
        }
    }

    /**
     * Sets {@code x} to the centre of the lower face in direction {@code dir} of zone (i, j, k): where the solver
     * keeps that zone's velocity component {@code dir}.
     */
    final void faceCentre(final int dir, final int i, final int j, final int k, final double[] x) {
        centre(i, j, k, x);
        if (dir == 0 && !cfg.uniform()) {
            final int s = 3 - dims;
            x[0] = cfg.face(s == 0 ? i : s == 1 ? j : k);
            return;
        }
        x[dir] -= 0.5 * dx[dir + 3 - dims];
    }

    /** @return the offset in a field of zone (i, j, k) (global zone numbers per slot, ghosts reachable) */
    final int index(final int i, final int j, final int k) {
        return (i - lo[0] + gw[0]) * st[0] + (j - lo[1] + gw[1]) * st[1] + (k - lo[2] + gw[2]) * st[2];
    }

    // The loops of the kernels of a grid that is not uniform Cartesian (RadialStep, RadialWork, RadialTransport) run
    // over the block's zones, extended by some zones below/above along each coordinate: the radius r (the outer
    // loop), then in 3-D the second coordinate m (slot 1), then the contiguous slot k: the second coordinate in 2-D,
    // the third in 3-D (in 1-D the inner loops run once). sb/sa extend the second coordinate, tb/ta the third.

    /** The first index of the middle loop: the second coordinate's, {@code sb} below the block, in 3-D (else 0). */
    final int mFirst(final int sb) {
        return dims == 3 ? lo[1] - sb : 0;
    }

    /** The last index of the middle loop, {@code sa} above the block, in 3-D (else 0). */
    final int mLast(final int sa) {
        return dims == 3 ? hi[1] + sa : 0;
    }

    /** The first index of the inner loop: the second coordinate's in 2-D, the third's in 3-D (0 in 1-D). */
    final int kFirst(final int sb, final int tb) {
        return dims == 3 ? lo[2] - tb : dims == 2 ? lo[2] - sb : 0;
    }

    /** The last index of the inner loop. */
    final int kLast(final int sa, final int ta) {
        return dims == 3 ? hi[2] + ta : dims == 2 ? hi[2] + sa : 0;
    }

    /** The offset of the first zone of the inner loop at radius r and middle index m. */
    final int start(final int r, final int m, final int sb, final int tb) {
        return switch (dims) {
            case 1 -> index(lo[0], lo[1], r);
            case 2 -> index(lo[0], r, lo[2] - sb);
            default -> index(r, m, lo[2] - tb);
        };
    }

    /**
     * The kinetic energy density of zone {@code z} on the staggered mesh. A face's kinetic energy is half the mean
     * density of its two zones times its velocity squared (its momentum is made of that mass), and each of the two
     * zones gets half of it: the zone's share is a quarter of the sum, over its faces, of the face density times the
     * velocity squared. Split so, the source step's work changes the internal energy exactly as {@code -p div v},
     * as the internal-energy scheme does; the total-energy scheme and the totals use this one definition, so that
     * what the scheme conserves is what is reported.
     *
     * @param v  the array holding the velocities: {@link #a}, or a copy of the velocity fields
     * @param vb the offset of the first velocity field in {@code v} ({@code V * sF} in {@code a}, 0 in a copy)
     * @param z  the zone's offset in a field (the zones on either side in every direction must be readable)
     * @return the kinetic energy per unit volume
     */
    final double kinetic(final double[] v, final int vb, final int z) {
        final int d = ZeusSolver.D * sF + z;
        final double rho = a[d];
        double sum = 0;
        for (int dir = 0; dir < dims; dir++) {
            final int o = st[dir + 3 - dims];
            final int f = vb + dir * sF + z;
            final double left = v[f];
            final double right = v[f + o];
            sum += (rho + a[d - o]) * left * left + (rho + a[d + o]) * right * right;
        }
        return 0.125 * sum;
    }

    /**
     * The internal energy density the pressure and the sound speed are made of. Under the total-energy scheme the
     * dual-energy selection ({@link SourceStep#internalFromTotal}) leaves every zone a positive internal energy as
     * long as the separately evolved one is; should one not be, it counts as none here (and the writers of the
     * results flag it: {@link NonPhysical}).
     *
     * @param e the internal energy density a zone holds
     * @return {@code e}, or 0 in place of a negative one under the total-energy scheme
     */
    final double pressureEnergy(final double e) {
        return total && e < 0 ? 0 : e;
    }

    /**
     * Whether the lower face of zone index c in slot s is a boundary face whose normal velocity the boundary sets:
     * a wall (0) or an inflow face (the inflow state's).
     */
    final boolean wall(final int dir, final int s, final int c) {
        return c == 0 && (cfg.lower()[dir] == Boundary.REFLECT || cfg.lower()[dir] == Boundary.INFLOW);
    }
}
