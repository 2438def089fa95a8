/**
 * Layer module org.jhpvm.ga: Global Arrays over SHMEM. It reads only the layer directly below (org.jhpvm.shmem) and
 * exports its API package; see README.md.
 */
module org.jhpvm.ga {
    requires org.jhpvm.shmem;

    exports org.jhpvm.ga;
}
