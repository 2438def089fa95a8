/**
 * The fabric SPI ({@link org.jhpvm.fabric.Fabric}, {@link org.jhpvm.fabric.Nic}, {@link org.jhpvm.fabric.Frame})
 * and its first implementation, the emulated Myrinet ({@link org.jhpvm.fabric.EmulatedMyrinet}).
 * Only {@code org.jhpvm.fabric} is exported; the emulator's machinery stays in {@code ...internal}.
 */
module org.jhpvm.fabric {
    requires org.jctools.core;
    requires org.eclipse.collections.api;
    requires org.eclipse.collections.impl;
    requires com.fasterxml.jackson.databind;
    requires java.management;

    exports org.jhpvm.fabric;
    exports org.jhpvm.fabric.timing;

    uses org.jhpvm.fabric.ProcessFabric.Provider;
}
