/**
 * Layer module org.jhpvm.shmem: OpenSHMEM-style symmetric memory over Fast Messages. It reads only the layer
 * directly below (org.jhpvm.fm) and exports its API package; see README.md.
 */
module org.jhpvm.shmem {
    requires org.jhpvm.fm;

    exports org.jhpvm.shmem;
}
