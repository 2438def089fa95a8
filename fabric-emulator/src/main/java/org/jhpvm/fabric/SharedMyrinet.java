package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import org.jhpvm.fabric.internal.MyrinetFabric;

/**
 * One emulated Myrinet that several jobs share, as the jobs of an HPVM cluster shared its network: a fixed number of
 * nodes behind one crossbar, of which each job takes a run of consecutive free nodes (a partition) for as long as it
 * runs. A job sees its partition as a fabric of its own, its NICs numbered from 0, so that it runs unchanged; the
 * shared fabric keeps which nodes each job holds and the counters of every partition, and gives the nodes back when
 * the job closes its partition.
 * <p>
 * What is shared and what is not:
 * <ul>
 *   <li>The switch's largest packet is the fabric's: its frame size and header area together. A job may use smaller
 *       frames (its own settings say which), never larger.</li>
 *   <li>Each node's own settings (frame size within the switch's, rings, pools, idle strategy) and the faults on its
 *       links ({@link FaultPlan}) are the job's, from the settings it asks with.</li>
 *   <li>The crossbar routes each frame in one hop to its destination's port, so the partitions of disjoint nodes
 *       never meet in it: a job's traffic, faults or failure cannot reach another job's frames, and closing one
 *       partition (a job ending, or failing) leaves the others running.</li>
 * </ul>
 * <p>
 * While a thread runs an action through {@link #share}, every {@link EmulatedMyrinet#create} that it, or a thread it
 * starts meanwhile, calls makes a partition of this fabric instead of a fabric of its own, so that the jobs of that
 * thread (an FM job, a SHMEM or GA job, the fabric's own traffic sample) land on it without being told. Thread-safe.
 */
public final class SharedMyrinet implements AutoCloseable {
    private static final InheritableThreadLocal<Sharing> SHARED = new InheritableThreadLocal<>();

    /** The fabric shared by a thread, and the name its partitions are recorded under. */
    private record Sharing(SharedMyrinet fabric, String owner) {
    }

    /**
     * The nodes one job held.
     *
     * @param owner     the name given to {@link #share(String, Supplier)}, "" outside one
     * @param firstNode the first node of the run, in the shared fabric's numbering
     * @param nodes     how many consecutive nodes, which the job numbered from 0
     * @param open      whether the job still holds them
     */
    public record Partition(String owner, int firstNode, int nodes, boolean open) {
        @Override
        public String toString() {
            return nodes == 1 ? "node " + firstNode : "nodes " + firstNode + "-" + (firstNode + nodes - 1);
        }
    }

    private final FabricConfig settings;
    /** The job holding each node, null when free. */
    private final Partition[] holder;
    /** Every partition, in the order reserved; null where its fabric could not be built. */
    private final List<Partition> made = new ArrayList<>();
    /** The fabric of each partition in {@link #made}, null while it is built and once closed. */
    private final List<MyrinetFabric> fabrics = new ArrayList<>();
    private NicCounters closedTotals = NicCounters.ZERO;
    private boolean closed;

    private SharedMyrinet(final FabricConfig settings) {
        this.settings = settings;
        this.holder = new Partition[settings.nicCount()];
    }

    /**
     * Makes a shared fabric. Nothing is allocated for a node until a job takes it.
     *
     * @param settings {@code nicCount} is the number of nodes; {@code frameBytes + headerBytes} is the switch's
     *                 largest packet, which no partition's frames may exceed; the rest is each job's own
     * @return a new shared fabric, every node free
     */
    public static SharedMyrinet create(final FabricConfig settings) {
        return new SharedMyrinet(Objects.requireNonNull(settings, "settings"));
    }

    /**
     * The shared fabric of the calling thread, if it runs inside {@link #share}.
     *
     * @return the fabric, or null
     */
    static SharedMyrinet current() {
        final Sharing s = SHARED.get();
        return s == null ? null : s.fabric;
    }

    /**
     * Runs {@code action} with this fabric shared: every fabric that the calling thread, or a thread it starts
     * meanwhile, makes through {@link EmulatedMyrinet#create} is a partition of this one, recorded under
     * {@code owner}.
     *
     * @param owner  what the partitions are recorded under ({@link Partition#owner()}), e.g. a job's command line
     * @param action what to run
     * @param <T>    its result type
     * @return its result
     */
    public <T> T share(final String owner, final Supplier<T> action) {
        final Sharing before = SHARED.get();
        SHARED.set(new Sharing(this, Objects.requireNonNull(owner, "owner")));
        try {
            return action.get();
        } finally {
            SHARED.set(before);
        }
    }

    /**
     * Takes {@code config.nicCount()} consecutive free nodes (the lowest run that fits) for a job, as a fabric whose
     * NICs are those nodes numbered from 0. Closing it gives them back. A refusal takes nothing.
     *
     * @param config the job's settings; its frames (payload and header area) must fit the switch's largest packet
     * @return the partition, open
     * @throws IllegalArgumentException if its frames are larger than the switch carries
     * @throws IllegalStateException    if no run of that many free nodes is left, or this fabric is closed
     */
    public Fabric partition(final FabricConfig config) {
        return partition(config, owner());
    }

    private static String owner() {
        final Sharing s = SHARED.get();
        return s == null ? "" : s.owner;
    }

    private Fabric partition(final FabricConfig config, final String owner) {
        Objects.requireNonNull(config, "config");
        final long packet = (long) config.frameBytes() + config.headerBytes();
        if (packet > maxPacketBytes()) {
            throw new IllegalArgumentException("a job on the shared fabric asked for frames of " + config.frameBytes()
                + " bytes with " + config.headerBytes() + " header bytes; the shared fabric's switch carries at most "
                + maxPacketBytes() + " in all (frames of " + settings.frameBytes() + " with " + settings.headerBytes()
                + "): ask for smaller frames");
        }
        final int index = reserve(config.nicCount(), owner);
        final Partition p;
        synchronized (this) {
            p = made.get(index);
        }
        // Built outside the lock: a large job's frames, pools and rings take a while to allocate, and other jobs'
        // partitions and closes must not wait for them.
        final MyrinetFabric fabric;
        try {
            fabric = new MyrinetFabric(config, "partition " + p + " of a shared fabric of " + holder.length
                + " nodes", () -> release(index));
        } catch (final RuntimeException | Error e) {
            unreserve(index);
            throw e;
        }
        final boolean closedMeanwhile;
        synchronized (this) {
            closedMeanwhile = closed;
            fabrics.set(index, fabric);
        }
        if (closedMeanwhile) {
            fabric.close(); // gives the nodes back
            throw new IllegalStateException("the shared fabric was closed while a job's partition was being made");
        }
        return fabric;
    }

    /** Takes the lowest run of {@code n} free nodes for {@code owner}; its fabric is still to be built. */
    private synchronized int reserve(final int n, final String owner) {
        if (closed) {
            throw new IllegalStateException("the shared fabric is closed");
        }
        final int first = firstFreeRun(n);
        if (first < 0) {
            throw new IllegalStateException("a job of " + n + " PEs does not fit on the shared fabric: " + free()
                + " of its " + holder.length + " nodes are free, and no " + n + " of them in a row (held: " + held()
                + ")");
        }
        final Partition p = new Partition(owner, first, n, true);
        for (int i = first; i < first + n; i++) {
            holder[i] = p;
        }
        made.add(p);
        fabrics.add(null);
        return made.size() - 1;
    }

    /** The fabric of a reserved partition could not be built: its nodes are free again, and it was never made. */
    private synchronized void unreserve(final int index) {
        final Partition p = made.get(index);
        for (int i = p.firstNode(); i < p.firstNode() + p.nodes(); i++) {
            holder[i] = null;
        }
        made.set(index, null);
    }

    /** The switch's largest packet: a frame's payload and header area together. */
    private long maxPacketBytes() {
        return (long) settings.frameBytes() + settings.headerBytes();
    }

    private int firstFreeRun(final int n) {
        int run = 0;
        for (int i = 0; i < holder.length; i++) {
            run = holder[i] == null ? run + 1 : 0;
            if (run == n) {
                return i - n + 1;
            }
        }
        return -1;
    }

    private String held() {
        final List<String> h = new ArrayList<>();
        for (final Partition p : made) {
            if (p != null && p.open()) {
                h.add(p + (p.owner().isEmpty() ? "" : " by '" + p.owner() + "'"));
            }
        }
        return h.isEmpty() ? "none" : String.join(", ", h);
    }

    /** A partition was closed: its nodes are free again, its counters kept. */
    private synchronized void release(final int index) {
        final Partition p = made.get(index);
        for (int i = p.firstNode(); i < p.firstNode() + p.nodes(); i++) {
            holder[i] = null;
        }
        made.set(index, new Partition(p.owner(), p.firstNode(), p.nodes(), false));
        closedTotals = closedTotals.plus(fabrics.get(index).totals());
        fabrics.set(index, null);
    }

    private int free() {
        int free = 0;
        for (final Partition p : holder) {
            free += p == null ? 1 : 0;
        }
        return free;
    }

    /**
     * The number of nodes.
     *
     * @return the nodes, held or free
     */
    public int nodes() {
        return holder.length;
    }

    /**
     * The free nodes.
     *
     * @return how many nodes no job holds now
     */
    public synchronized int freeNodes() {
        return free();
    }

    /**
     * Every partition made so far, in the order made.
     *
     * @return the partitions, open or closed
     */
    public synchronized List<Partition> partitions() {
        return made.stream().filter(Objects::nonNull).toList();
    }

    /**
     * Adds up the counters of every partition made so far: those closed as they were at their close, the others
     * read now (see {@link Fabric#totals()}).
     *
     * @return the counters of the whole fabric
     */
    public synchronized NicCounters totals() {
        NicCounters sum = closedTotals;
        for (final MyrinetFabric f : fabrics) {
            if (f != null) {
                sum = sum.plus(f.totals());
            }
        }
        return sum;
    }

    /** Closes every open partition (their waiting calls end) and refuses new ones. Idempotent. */
    @Override
    public void close() {
        final List<MyrinetFabric> open = new ArrayList<>();
        synchronized (this) {
            closed = true;
            for (final MyrinetFabric f : fabrics) {
                if (f != null) {
                    open.add(f);
                }
            }
        }
        // Outside the lock: each close gives its nodes back through release, which takes it.
        for (final MyrinetFabric f : open) {
            f.close();
        }
    }

    @Override
    public synchronized String toString() {
        return "SharedMyrinet{nodes=" + holder.length + ", held=" + held() + '}';
    }
}
