package org.jhpvm.fabric.aeron;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.HostMemory;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fabric.ProcessFabric;

/**
 * The fabric SPI over Aeron, for jobs of several processes: this process's share of the job's NICs. NICs of this
 * process reach each other in the JVM (frames by reference); NICs of other processes are reached over Aeron IPC when
 * their process runs on this host and over Aeron UDP unicast otherwise, one exclusive publication per (local NIC,
 * remote NIC) on stream {@code 1000000 + NIC}. The first process of each host runs that host's media driver (embedded,
 * one thread, backing off when idle); the others connect to it.
 * <p>
 * Aeron delivers reliably and in order with flow control, and buffers a term window per publication, so the
 * capabilities say reliable, ordered, flow-controlled and buffered: FM above adds no acknowledgements or
 * retransmission. The join (see {@link Hello}) authenticates every publication with the job's secret; the control
 * plane ({@link ControlPlane}) adds heartbeats, failures and the job-wide end of a job.
 */
public final class AeronFabric implements ProcessFabric {
    /** What every Aeron fabric guarantees: Aeron's reliable, ordered streams with their term buffers. */
    public static final FabricCapabilities CAPABILITIES = new FabricCapabilities(true, true, true, false, true);

    /**
     * Control stream id of rank 0; rank r listens on {@code CONTROL_STREAM_BASE + r} (IPC streams are not addressed:
     * every subscriber of a stream on the driver hears every publication to it, so a stream names its receiver).
     */
    static final int CONTROL_STREAM_BASE = 10;
    /** Data stream id of NIC 0; NIC n uses {@code DATA_STREAM_BASE + n}. */
    static final int DATA_STREAM_BASE = 1_000_000;
    /**
     * Longest park of the media driver's one thread when it has nothing to do: 1 ms, Aeron's own default (100 us made
     * an idle job's driver wake 10,000 times a second, 9% of a core here). A busy driver never parks that long: each
     * duty cycle with work starts its backoff again.
     */
    static final long DRIVER_MAX_PARK_NS = 1_000_000;
    /** Term length of data publications: a window of half of it per publication. */
    static final int TERM_LENGTH = 4 << 20;

    private final JobEnvironment env;
    private final int nicCount;
    private final int frameBytes;
    private final int headerBytes;
    private final int ring;
    private final int pool;
    private final int first;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final AeronNic[] nics;
    /** The parameters of UDP channels to other hosts. */
    private final UdpChannels udp;
    private final ControlPlane control;
    private final Thread controlThread;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong staleJob = new AtomicLong();
    private final AtomicLong earlyJob = new AtomicLong();
    private final FileHostMemory hostMemory;
    /** The host's doorbells, or null where futexes are not available (then waiting threads look now and then). */
    private final Doorbells doorbells;
    /** Whether every NIC and process of the job is on this host, reached by IPC: then every frame rings. */
    private final boolean allRing;
    private volatile boolean closed;

    private AeronFabric(final JobEnvironment env, final FabricConfig config) {
        this.env = env;
        this.nicCount = env.nicCount();
        this.frameBytes = config.frameBytes();
        this.headerBytes = config.headerBytes();
        this.ring = config.receiveRingCapacity();
        this.pool = Math.max(config.poolFrames(), 2 * ring);
        this.first = env.rank() * env.pesPerProcess();
        final long joinDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(env.joinTimeoutMs());
        final String bind = needsUdp() ? address(env.hosts().get(env.rank())) : null;
        for (final String h : JobEnvironment.distinctHosts(env.hosts())) {
            if (!h.equals(env.hosts().get(env.rank())) || env.udpOnly()) {
                address(h);
            }
        }
        MediaDriver d = null;
        Aeron a = null;
        try {
            if (env.ownsDriver()) {
                StaleDirectories.sweep(env.aeronDir(), System.currentTimeMillis());
                d = MediaDriver.launch(new MediaDriver.Context()
                    .aeronDirectoryName(env.aeronDir())
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true)
                    .threadingMode(ThreadingMode.SHARED)
                    .sharedIdleStrategy(ipcOnly(env) ? DeepIdleStrategy.driver(DRIVER_MAX_PARK_NS)
                        : new BackoffIdleStrategy(100, 10, 1_000, DRIVER_MAX_PARK_NS))
                    // Its helper thread (name resolution, file work) looks every 10 ms, not every 1 ms.
                    .asyncExecutorIdleStrategy(DeepIdleStrategy.sleeping(10))
                    .termBufferSparseFile(true)
                    .publicationTermBufferLength(TERM_LENGTH)
                    .ipcTermBufferLength(TERM_LENGTH)
                    .warnIfDirectoryExists(false)
                    .errorHandler(this::driverError));
            }
            a = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(env.aeronDir())
                .idleStrategy(DeepIdleStrategy.sleeping(16)) // Aeron's default 16 ms, 100 ms once idle
                .driverTimeoutMs(Math.max(10_000, env.joinTimeoutMs()))
                .errorHandler(this::clientError));
        } catch (RuntimeException e) {
            closeQuietly(a, d);
            throw new IllegalStateException("cannot start Aeron in " + env.aeronDir() + ": " + e.getMessage(), e);
        }
        this.driver = d;
        this.aeron = a;
        Doorbells bells = null;
        try {
            bells = Doorbells.open(Path.of(env.aeronDir()), nicCount + env.processes());
        } catch (IllegalStateException e) {
            closeQuietly(a, d);
            throw e;
        }
        this.doorbells = bells;
        this.hostMemory = new FileHostMemory(env, first, env.pesPerProcess(), bells);
        this.allRing = bells != null && ipcOnly(env);
        try {
            final int mtu = Math.min(65_504, roundUp32(FrameDescriptor.FABRIC_HEADER_BYTES + headerBytes + frameBytes + 32));
            final String ipc = "aeron:ipc?term-length=" + TERM_LENGTH + "|mtu=" + mtu;
            final List<Subscription> controlSubs = new ArrayList<>();
            final ExclusivePublication[] controlPubs = new ExclusivePublication[env.processes()];
            final boolean anyIpc = anyRank(true);
            final boolean anyUdp = anyRank(false);
            this.udp = UdpChannels.forHost(env.udpMtu(), bind);
            if (anyUdp && System.getenv("JHPVM_DEBUG") != null) {
                System.err.println("jhpvm: rank " + env.rank() + ": " + udp + " (" + udp.publication()
                    + udp.subscription() + ")");
            }
            final String udpSub = "aeron:udp?endpoint=" + bind + ":" + env.port(env.rank()) + udp.subscription();
            if (anyIpc) {
                controlSubs.add(a.addSubscription("aeron:ipc", CONTROL_STREAM_BASE + env.rank()));
            }
            if (anyUdp) {
                controlSubs.add(subscribeUdp(udpSub, CONTROL_STREAM_BASE + env.rank()));
            }
            for (int r = 0; r < env.processes(); r++) {
                if (r != env.rank()) {
                    controlPubs[r] = a.addExclusivePublication(channelTo(r, ipc), CONTROL_STREAM_BASE + r);
                }
            }
            this.nics = new AeronNic[env.pesPerProcess()];
            for (int i = 0; i < nics.length; i++) {
                final int id = first + i;
                final List<Subscription> subs = new ArrayList<>();
                if (anyIpc) {
                    subs.add(a.addSubscription("aeron:ipc", DATA_STREAM_BASE + id));
                }
                if (anyUdp) {
                    subs.add(subscribeUdp(udpSub, DATA_STREAM_BASE + id));
                }
                final ExclusivePublication[] pubs = new ExclusivePublication[nicCount];
                for (int dst = 0; dst < nicCount; dst++) {
                    final int r = dst / env.pesPerProcess();
                    if (r != env.rank()) {
                        pubs[dst] = a.addExclusivePublication(channelTo(r, ipc), DATA_STREAM_BASE + dst);
                    }
                }
                nics[i] = new AeronNic(this, id, ring, pool, hello(), pubs, subs.toArray(new Subscription[0]));
            }
            this.control = new ControlPlane(this, env, controlPubs, controlSubs.toArray(new Subscription[0]), hello());
            awaitConnected(controlPubs, joinDeadline);
            for (final AeronNic n : nics) {
                final ExclusivePublication[] pubs = new ExclusivePublication[nicCount];
                for (int dst = 0; dst < nicCount; dst++) {
                    pubs[dst] = n.publication(dst);
                }
                awaitConnected(pubs, joinDeadline);
            }
            final UnsafeBuffer scratch = new UnsafeBuffer(new byte[Hello.BYTES]);
            boolean sent = this.control.sendHellos(joinDeadline);
            for (final AeronNic n : nics) {
                sent &= n.sendHellos(scratch, joinDeadline);
            }
            if (!sent) {
                throw new IllegalStateException("join: hellos could not be sent within " + env.joinTimeoutMs() + " ms");
            }
            this.controlThread = Thread.ofPlatform().daemon(true).name("jhpvm-aeron-control-" + env.rank())
                .start(this.control);
            this.control.awaitJoin(Math.max(100, TimeUnit.NANOSECONDS.toMillis(joinDeadline - System.nanoTime())));
        } catch (RuntimeException e) {
            closed = true;
            closeQuietly(a, d);
            throw e instanceof IllegalStateException || e instanceof IllegalArgumentException ? e
                : new IllegalStateException("join failed: " + e.getMessage(), e);
        }
    }

    /**
     * Joins the job the environment describes: starts or connects to this host's media driver, opens every
     * subscription and publication, and waits for every process's authenticated hello.
     *
     * @param env    this process's place in the job
     * @param config frame size, header area and receive ring (the fault plan is ignored: Aeron does not lose frames)
     * @return the joined fabric
     * @throws IllegalArgumentException if a host is unknown or a UDP port is in use
     * @throws IllegalStateException    if the join fails or times out (one line: who is missing, or the mismatch)
     */
    public static AeronFabric join(final JobEnvironment env, final FabricConfig config) {
        return new AeronFabric(env, config);
    }

    private Hello hello() {
        return new Hello(env.secret(), env.jobId(), nicCount, env.processes(), env.pesPerProcess());
    }

    private boolean needsUdp() {
        return anyRank(false);
    }

    /** @return true if some other rank is reached over IPC ({@code ipc}) or over UDP ({@code !ipc}) */
    private boolean anyRank(final boolean ipc) {
        for (int r = 0; r < env.processes(); r++) {
            if (r != env.rank() && env.sameHost(r) == ipc) {
                return true;
            }
        }
        return false;
    }

    private String channelTo(final int r, final String ipc) {
        if (env.sameHost(r)) {
            return ipc;
        }
        return "aeron:udp?endpoint=" + address(env.hosts().get(r)) + ":" + env.port(r) + udp.publication();
    }

    private Subscription subscribeUdp(final String channel, final int stream) {
        try {
            return aeron.addSubscription(channel, stream);
        } catch (AeronException e) {
            final String m = String.valueOf(e.getMessage());
            if (m.contains("in use") || m.contains("bind")) {
                throw new IllegalArgumentException("UDP " + channel.substring(channel.indexOf('=') + 1) + " cannot be "
                    + "bound (port in use, or the address is not this host's): " + m, e);
            }
            throw e;
        }
    }

    private static String address(final String host) {
        try {
            return InetAddress.getByName(host).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "'", e);
        }
    }

    private void awaitConnected(final ExclusivePublication[] pubs, final long deadlineNs) {
        for (int i = 0; i < pubs.length; i++) {
            final ExclusivePublication p = pubs[i];
            while (p != null && !p.isConnected()) {
                if (System.nanoTime() - deadlineNs > 0) {
                    throw new IllegalStateException("join: " + (pubs.length == env.processes() ? "process " + i
                        : "PE " + i) + " did not connect within " + env.joinTimeoutMs() + " ms");
                }
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("join interrupted", e);
                }
            }
        }
    }

    private static int roundUp32(final int n) {
        return (n + 31) & ~31;
    }

    private void driverError(final Throwable t) {
        if (!closed) {
            System.err.println("jhpvm: Aeron media driver: " + t);
        }
    }

    private void clientError(final Throwable t) {
        if (!closed) {
            System.err.println("jhpvm: Aeron client: " + t);
        }
    }

    private static void closeQuietly(final Aeron a, final MediaDriver d) {
        try {
            if (a != null) {
                a.close();
            }
        } finally {
            if (d != null) {
                d.close();
            }
        }
    }

    // ---------------------------------------------------------------- Fabric

    @Override
    public int nicCount() {
        return nicCount;
    }

    @Override
    public int frameBytes() {
        return frameBytes;
    }

    @Override
    public int headerBytes() {
        return headerBytes;
    }

    @Override
    public int receiveRingCapacity() {
        return ring;
    }

    @Override
    public int poolFrames() {
        return pool;
    }

    /**
     * The processes of a host share segments through files in its job directory ({@link FileHostMemory}); NICs of
     * other hosts, and every other process under {@code JHPVM_TRANSPORT=udp}, are not reached.
     */
    @Override
    public Optional<HostMemory> hostMemory() {
        return Optional.of(hostMemory);
    }

    @Override
    public FabricCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public Nic nic(final int id) {
        if (id < 0 || id >= nicCount) {
            throw new IndexOutOfBoundsException("NIC " + id + " outside 0.." + (nicCount - 1));
        }
        if (!isLocal(id)) {
            throw new IllegalArgumentException("NIC " + id + " is in process " + id / env.pesPerProcess()
                + ", not in this one (rank " + env.rank() + ")");
        }
        return nics[id - first];
    }

    AeronNic localNic(final int id) {
        return nics[id - first];
    }

    /**
     * How a waiting thread of a launched job is woken on this machine, in words (for {@code bin/jhpvm info}).
     *
     * @return "futex doorbells ..." where the doorbells work, else why threads look now and then instead
     */
    public static String waitingAcrossProcesses() {
        if (!Futex.AVAILABLE) {
            return "looks now and then (no doorbells: " + Futex.UNAVAILABLE_BECAUSE + ")";
        }
        if (!Boolean.parseBoolean(System.getProperty(Doorbells.ENABLED_PROPERTY, "true"))) {
            return "looks now and then (doorbells off: -D" + Doorbells.ENABLED_PROPERTY + "=false)";
        }
        return "futex doorbells between the processes of a host (-D" + Doorbells.ENABLED_PROPERTY
            + "=false turns them off)";
    }

    /** Whether every process of the job is on this host and reached by IPC (no UDP at all). */
    private static boolean ipcOnly(final JobEnvironment env) {
        boolean all = !env.udpOnly();
        for (int r = 0; r < env.processes(); r++) {
            all &= r == env.rank() || env.sameHost(r);
        }
        return all;
    }

    /** @return the host's doorbells, or null */
    Doorbells doorbells() {
        return doorbells;
    }

    /**
     * Whether a frame or control message for {@code nic} (or the control thread of the process that holds it) rings a
     * bell in this host's doorbells: it is in this process, or in another process of this host reached by IPC.
     */
    boolean rings(final int nic) {
        final int r = nic / env.pesPerProcess();
        return doorbells != null && (r == env.rank() || !env.udpOnly() && env.sameHost(r));
    }

    /**
     * Whether every frame this process's NICs can receive rings their bells (every process of the job on this host,
     * by IPC): then a NIC sleeps on its bell instead of looking now and then.
     */
    boolean allRing() {
        return allRing;
    }

    @Override
    public NicCounters totals() {
        NicCounters t = NicCounters.ZERO;
        for (final AeronNic n : nics) {
            t = t.plus(n.counters());
        }
        return t;
    }

    /**
     * How many arrived messages this process has dropped since it joined, on its NICs' data streams and on its
     * control stream: a hello that does not verify, data before a verified hello, a frame whose source, destination
     * or length disagree with its stream, a malformed or unknown control message. A running count that never
     * resets; may be read from any thread.
     *
     * @return messages dropped because they did not come from a member of the job, or were malformed
     */
    public long rejectedMessages() {
        return rejected.get();
    }

    void rejected() {
        rejected.incrementAndGet();
    }

    /**
     * The number of the job this process began last (0 before its first), stamped on every data message it sends.
     * A process begins a job only after the job-wide end of the one before, so a message of a later job than the
     * receiver's waits for the receiver to begin it, and one of an earlier job is a straggler of a job that has ended.
     */
    int currentJob() {
        return control.currentJob();
    }

    /** Messages of an ended job that arrived after this process began a later one, dropped. */
    long staleJobMessages() {
        return staleJob.get();
    }

    void staleJobMessage() {
        staleJob.incrementAndGet();
    }

    /** Times a message of a job this process had not begun yet was left in its stream to wait for that job. */
    long earlyJobPolls() {
        return earlyJob.get();
    }

    void earlyJobPoll() {
        earlyJob.incrementAndGet();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    void checkOpen() {
        if (closed) {
            throw new FabricClosedException("the Aeron fabric is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (driver != null) {
            control.awaitHostPeersLeft(5_000);
        }
        control.stop(controlThread);
        closed = true;
        if (doorbells != null) {
            doorbells.ringAll(); // threads asleep on a bell look, and see the fabric closed
        }
        hostMemory.closeAll();
        closeQuietly(aeron, driver);
    }

    // ---------------------------------------------------------------- ProcessFabric

    @Override
    public int rank() {
        return env.rank();
    }

    @Override
    public int processesOnHost() {
        return env.hostPeers().size() + 1;
    }

    @Override
    public int processes() {
        return env.processes();
    }

    @Override
    public int firstLocalNic() {
        return first;
    }

    @Override
    public int localNicCount() {
        return nics.length;
    }

    @Override
    public JobSession beginJob(final JobHooks hooks) {
        checkOpen();
        return control.begin(hooks);
    }

    /**
     * The environment this fabric joined with (rank, hosts, ports, Aeron directory, timeouts); immutable.
     *
     * @return this process's place in the job
     */
    public JobEnvironment environment() {
        return env;
    }

    @Override
    public String toString() {
        return "AeronFabric{rank=" + env.rank() + "/" + env.processes() + ", NICs " + first + ".."
            + (first + nics.length - 1) + " of " + nicCount + ", dir=" + env.aeronDir() + '}';
    }
}
