import mpi.MPI;

/** Open MPI's test suite's environment/Abort: rank 0 aborts with 3 while the others sleep outside MPI. */
public class AbortsWhileOthersSleep {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 0) {
            MPI.COMM_WORLD.abort(3);
        }
        Thread.sleep(120_000); // mpirun would kill these processes: the job must end without them
        MPI.Finalize();
    }
}
