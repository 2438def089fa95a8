/**
 * Layer module org.jhpvm.mpi: MPI-FM, message passing over Fast Messages, with the Open MPI Java bindings' API
 * (package {@code mpi}), FPVM's PVM 3 face (package {@code org.jhpvm.mpi.pvm}) and the one-JVM launcher (package
 * {@code org.jhpvm.mpi}). It reads only the layer directly
 * below (org.jhpvm.fm); see README.md.
 */
module org.jhpvm.mpi {
    requires org.jhpvm.fm;

    exports mpi;
    exports org.jhpvm.mpi;
    exports org.jhpvm.mpi.pvm;
}
