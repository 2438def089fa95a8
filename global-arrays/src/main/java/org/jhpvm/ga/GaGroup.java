package org.jhpvm.ga;

import java.util.Arrays;

import org.jhpvm.shmem.ShmemTeam;

/**
 * A processor group ({@code GA_Pgroup_*}): an ordered list of world PEs. Arrays created on a group live on its
 * members only, and every PE number in their API (distribution, locate, owners) is a rank in the group, as in GA.
 * A group handle exists on every PE that took part in its creation; only members may use it.
 * <p>
 * Thread-safety: use from the owning PE's thread.
 */
public final class GaGroup {
    final GlobalArrays ga;
    final ShmemTeam team;
    final int[] members;
    /** Whether this is the mirror group ({@code GA_Pgroup_get_mirror}): the PEs of the caller's node. */
    final boolean mirror;
    private boolean destroyed;

    GaGroup(final GlobalArrays ga, final ShmemTeam team, final int[] members) {
        this(ga, team, members, false);
    }

    GaGroup(final GlobalArrays ga, final ShmemTeam team, final int[] members, final boolean mirror) {
        this.ga = ga;
        this.team = team;
        this.members = members;
        this.mirror = mirror;
    }

    /**
     * Whether the calling PE belongs to the group. Every PE that took part in {@link GlobalArrays#pgroupCreate}
     * holds a handle, but only members may use it for arrays, syncs and group operations.
     *
     * @return whether the calling PE is a member
     */
    public boolean isMember() {
        return team != null;
    }

    /**
     * {@code GA_Pgroup_nodeid}: the calling PE's rank in the group, the number an array on this group uses for it.
     * No communication.
     *
     * @return the calling PE's rank in the group, or -1 for a non-member
     */
    public int nodeid() {
        return team == null ? -1 : team.myPe();
    }

    /**
     * {@code GA_Pgroup_nnodes}: the size of the group. No communication; a non-member may ask too.
     *
     * @return the number of PEs in the group
     */
    public int nnodes() {
        return members.length;
    }

    /**
     * {@code GA_Pgroup_absolute_id}: the world PE of a group rank.
     *
     * @param rank a rank in the group
     * @return its world PE number
     * @throws IndexOutOfBoundsException outside 0..nnodes()-1
     */
    public int absoluteId(final int rank) {
        if (rank < 0 || rank >= members.length) {
            throw new IndexOutOfBoundsException("rank " + rank + " outside the group's 0.." + (members.length - 1));
        }
        return members[rank];
    }

    /**
     * {@code GA_Pgroup_sync}: completes the caller's outstanding operations, then a barrier over the group. Resets
     * {@link GlobalArrays#maskSync}.
     */
    public void sync() {
        ga.syncAtBegin = true;
        ga.syncAtEnd = true;
        barrier();
    }

    /** Syncs done on this PE (a test's count of what {@link GlobalArrays#maskSync} leaves out). */
    long syncs;

    private void barrier() {
        checkMember();
        syncs++;
        ga.shmem.quiet();
        ga.shmem.sync(team);
    }

    /**
     * The synchronisation at the start of a collective that honours {@link GlobalArrays#maskSync}: skipped if the
     * mask says so; the mask is reset either way.
     *
     * @return whether {@link #syncEnd} is to sync at the operation's end
     */
    boolean syncBegin() {
        final boolean begin = ga.syncAtBegin;
        final boolean end = ga.syncAtEnd;
        ga.syncAtBegin = true;
        ga.syncAtEnd = true;
        if (begin) {
            barrier();
        } else {
            checkMember();
        }
        return end;
    }

    /** The synchronisation at the end of such a collective, if {@link #syncBegin} said so. */
    void syncEnd(final boolean end) {
        if (end) {
            barrier();
        }
    }

    /** {@code GA_Pgroup_destroy}: the handle can no longer be used on this PE (the world group cannot go). */
    public void destroy() {
        if (this == ga.world || mirror) {
            throw new IllegalArgumentException("the " + (mirror ? "mirror" : "world") + " group cannot be destroyed");
        }
        checkUsable();
        if (this == ga.defaultGroup) {
            throw new IllegalStateException("group " + this + " is the default group: set another default first");
        }
        if (ga.hasArraysOn(this)) {
            throw new IllegalStateException("group " + this + " still has arrays: destroy them first");
        }
        if (team != null) {
            team.destroy();
        }
        destroyed = true;
    }

    void checkUsable() {
        if (destroyed) {
            throw new IllegalStateException("group " + this + " was destroyed");
        }
    }

    void checkMember() {
        checkUsable();
        if (team == null) {
            throw new IllegalStateException("PE " + ga.shmem.myPe() + " is not a member of group " + this);
        }
    }

    @Override
    public String toString() {
        return "GaGroup" + Arrays.toString(members);
    }
}
