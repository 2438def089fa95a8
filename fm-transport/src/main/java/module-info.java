/**
 * Illinois Fast Messages 1.x and 2.x over a fabric: reliable, in-order, exactly-once, flow-controlled delivery.
 * Reads only the layer directly below (org.jhpvm.fabric); exports its API package only.
 */
module org.jhpvm.fm {
    requires org.jhpvm.fabric;

    exports org.jhpvm.fm;
}
