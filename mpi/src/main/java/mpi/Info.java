package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An info object ({@code MPI_Info}): ordered (key, value) hints. jhpvm takes them and uses none (MPI lets an
 * implementation ignore any hint); {@link Comm#dupWithInfo} and {@link Comm#setInfo} keep them for
 * {@link Comm#getInfo}. {@link MPI#INFO_NULL} is the null info.
 */
public final class Info implements Freeable, Cloneable {
    /** MPI's limit on a key's length ({@code MPI_MAX_INFO_KEY}). */
    public static final int MAX_KEY = 255;

    private final Map<String, String> entries;
    private boolean freed;

    /** An empty info object ({@code MPI_Info_create}). */
    public Info() {
        this(new LinkedHashMap<>());
    }

    private Info(final Map<String, String> entries) {
        this.entries = entries;
    }

    /** {@link MPI#INFO_NULL}. */
    static Info nullInfo() {
        final Info i = new Info();
        i.freed = true;
        return i;
    }

    private void check() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_INFO, "the info object is MPI_INFO_NULL or freed");
        }
    }

    /**
     * {@code MPI_Info_set}.
     *
     * @param key   the key (1 to {@value #MAX_KEY} characters)
     * @param value the value
     * @throws MPIException {@code ERR_INFO_KEY} for an empty or too long key, {@code ERR_INFO} on a null info
     */
    public void set(final String key, final String value) throws MPIException {
        check();
        if (key == null || key.isEmpty() || key.length() > MAX_KEY) {
            throw new MPIException(MPI.ERR_INFO_KEY, "info key '" + key + "': 1 to " + MAX_KEY + " characters");
        }
        if (value == null) {
            throw new MPIException(MPI.ERR_INFO_VALUE, "info value of '" + key + "' is null");
        }
        entries.put(key, value);
    }

    /**
     * {@code MPI_Info_get}.
     *
     * @param key the key
     * @return its value, or null if not set
     * @throws MPIException on a null info
     */
    public String get(final String key) throws MPIException {
        check();
        return entries.get(key);
    }

    /**
     * {@code MPI_Info_delete}.
     *
     * @param key the key
     * @throws MPIException {@code ERR_INFO_NOKEY} if it is not set
     */
    public void delete(final String key) throws MPIException {
        check();
        if (entries.remove(key) == null) {
            throw new MPIException(MPI.ERR_INFO_NOKEY, "info key '" + key + "' is not set");
        }
    }

    /**
     * {@code MPI_Info_get_nkeys}.
     *
     * @return how many keys are set
     * @throws MPIException on a null info
     */
    public int size() throws MPIException {
        check();
        return entries.size();
    }

    /**
     * {@code MPI_Info_get_nthkey}.
     *
     * @param i 0 .. size()-1
     * @return the key, in the order the keys were first set
     * @throws MPIException {@code ERR_ARG} outside the keys
     */
    public String getKey(final int i) throws MPIException {
        check();
        final List<String> keys = new ArrayList<>(entries.keySet());
        if (i < 0 || i >= keys.size()) {
            throw new MPIException(MPI.ERR_ARG, "info key " + i + " of " + keys.size());
        }
        return keys.get(i);
    }

    @Override
    public Info clone() {
        return new Info(new LinkedHashMap<>(entries));
    }

    /**
     * {@code MPI_Info_dup}.
     *
     * @return a copy
     * @throws MPIException on a null info
     */
    public Info dup() throws MPIException {
        check();
        return clone();
    }

    /**
     * {@code MPI_Info_free}: the object becomes {@link MPI#INFO_NULL}-like ({@link #isNull()}).
     *
     * @throws MPIException if already null
     */
    @Override
    public void free() throws MPIException {
        check();
        freed = true;
    }

    /**
     * Whether this is {@link MPI#INFO_NULL} or freed.
     *
     * @return true for the null info
     */
    public boolean isNull() {
        return freed;
    }
}
