/**
 * Layer module org.jhpvm.ga: it reads only the layer directly below (org.jhpvm.shmem). See README.md for what will
 * live here.
 */
module org.jhpvm.ga {
    requires org.jhpvm.shmem;
}
