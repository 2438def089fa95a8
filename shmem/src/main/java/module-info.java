/**
 * Layer module org.jhpvm.shmem: it reads only the layer directly below (org.jhpvm.fm). See README.md for what will
 * live here.
 */
module org.jhpvm.shmem {
    requires org.jhpvm.fm;
}
