package org.jhpvm.hydro;

/** A boundary condition of one face of the domain (ZEUS's nijb/noib types: outflow, reflecting, periodic, inflow). */
public enum Boundary {
    /** Zero gradient: every ghost zone copies the nearest active zone (the normal velocity too). */
    OUTFLOW,
    /** A wall: scalars and tangential velocities mirrored, the normal velocity mirrored with its sign flipped. */
    REFLECT,
    /** The opposite face's zones (both faces of a dimension must be periodic). */
    PERIODIC,
    /** A given state flowing in (or out): the ghost zones take {@link ZeusSolver.Inflow}'s state at their place and
     * time. */
    INFLOW
}
