package org.jhpvm.ga;

import java.util.Objects;

import org.jhpvm.shmem.Shmem;

/**
 * GA's cluster queries ({@code GA_Cluster_nnodes}, {@code GA_Cluster_nodeid}, {@code GA_Cluster_proc_nodeid},
 * {@code GA_Cluster_nprocs}, {@code GA_Cluster_procid}): a node is a JVM, and SHMEM's shared team is this PE's node.
 * One of the package-private superclasses of {@link GlobalArrays}, whose page documents the methods.
 * <p>
 * Thread-safety: as {@link GlobalArrays}: the PE's own thread only.
 */
abstract sealed class ClusterQueries extends GlobalOperations permits LinearAlgebraOps {
    ClusterQueries(final Shmem shmem) {
        super(shmem);
    }

    /**
     * {@code GA_Cluster_nnodes}: the nodes of the job. A node is a JVM: one for a job run in one JVM, one per
     * process under {@code bin/jhpvm launch} (each process hosts the same number of consecutive PEs). No
     * communication.
     *
     * @return the number of nodes
     */
    public int clusterNnodes() {
        return shmem.nPes() / shmem.teamShared().nPes();
    }

    /**
     * {@code GA_Cluster_nodeid}: the node of this PE.
     *
     * @return its node, 0 .. {@link #clusterNnodes()}-1
     */
    public int clusterNodeid() {
        return clusterProcNodeid(shmem.myPe());
    }

    /**
     * {@code GA_Cluster_proc_nodeid}: the node of world PE {@code pe}.
     *
     * @param pe a world PE
     * @return its node
     * @throws IndexOutOfBoundsException if {@code pe} is not a PE of the job
     */
    public int clusterProcNodeid(final int pe) {
        Objects.checkIndex(pe, shmem.nPes());
        return pe / shmem.teamShared().nPes();
    }

    /**
     * {@code GA_Cluster_nprocs}: the PEs of node {@code node}.
     *
     * @param node a node
     * @return how many PEs it hosts
     * @throws IndexOutOfBoundsException if {@code node} is not a node of the job
     */
    public int clusterNprocs(final int node) {
        Objects.checkIndex(node, clusterNnodes());
        return shmem.teamShared().nPes();
    }

    /**
     * {@code GA_Cluster_procid}: the world PE of the {@code i}-th PE of node {@code node}.
     *
     * @param node a node
     * @param i    0 .. {@code clusterNprocs(node)}-1
     * @return its world PE number
     * @throws IndexOutOfBoundsException if {@code node} or {@code i} is out of range
     */
    public int clusterProcid(final int node, final int i) {
        Objects.checkIndex(i, clusterNprocs(node));
        return node * shmem.teamShared().nPes() + i;
    }
}
