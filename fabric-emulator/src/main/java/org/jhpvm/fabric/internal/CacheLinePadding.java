package org.jhpvm.fabric.internal;

/**
 * The first link of a padded class hierarchy, as Agrona and JCTools pad: 132 bytes before the fields of the
 * subclass that extends it, so that fields one core writes on every frame never share a cache line (nor the
 * adjacent-line prefetch pair) with the previous object on the heap. The int fills the gap after the object
 * header, which the JVM would otherwise give to a subclass field. Each padded class adds its own padding after
 * its hot fields.
 */
abstract class CacheLinePadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}
