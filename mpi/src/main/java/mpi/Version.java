package mpi;

/** The version of the MPI standard implemented ({@code MPI_Get_version}): {@link MPI#getVersion()}. */
public final class Version {
    private final int version;
    private final int subVersion;

    Version(final int version, final int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /**
     * The major version.
     *
     * @return {@link MPI#VERSION}
     */
    public int getVersion() {
        return version;
    }

    /**
     * The minor version.
     *
     * @return {@link MPI#SUBVERSION}
     */
    public int getSubVersion() {
        return subVersion;
    }
}
