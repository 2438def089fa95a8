package mpi;

/** An MPI object that can be freed ({@code MPI_*_free}). */
public interface Freeable {
    /**
     * Frees the object; using it afterwards is an error.
     *
     * @throws MPIException if it cannot be freed
     */
    void free() throws MPIException;
}
