/**
 * Layer module org.jhpvm.fm: it reads only the layer directly below (org.jhpvm.fabric). See README.md for what will
 * live here.
 */
module org.jhpvm.fm {
    requires org.jhpvm.fabric;
}
