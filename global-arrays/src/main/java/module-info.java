/**
 * Layer module org.jhpvm.ga: Global Arrays over SHMEM. Of jhpvm's layers it reads only the one directly below
 * (org.jhpvm.shmem); the solvers use EJML. It exports its API package; see README.md.
 */
module org.jhpvm.ga {
    requires org.jhpvm.shmem;
    // EJML's jars name no module: these are the names the JDK derives from the file names (ejml-ddense-*.jar).
    requires ejml.ddense;
    requires ejml.core;

    exports org.jhpvm.ga;
}
