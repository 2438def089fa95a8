package org.jhpvm.fabric.aeron;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.ProcessFabric;

import static org.jhpvm.fabric.aeron.ControlMessages.BYE;
import static org.jhpvm.fabric.aeron.ControlMessages.DESCRIBE;
import static org.jhpvm.fabric.aeron.ControlMessages.DESCRIPTION;
import static org.jhpvm.fabric.aeron.ControlMessages.DONE;
import static org.jhpvm.fabric.aeron.ControlMessages.EXIT;
import static org.jhpvm.fabric.aeron.ControlMessages.FAIL;
import static org.jhpvm.fabric.aeron.ControlMessages.FAIL_SENDER_REPORTS;
import static org.jhpvm.fabric.aeron.ControlMessages.HEARTBEAT;
import static org.jhpvm.fabric.aeron.ControlMessages.LE;
import static org.jhpvm.fabric.aeron.ControlMessages.MAGIC;
import static org.jhpvm.fabric.aeron.ControlMessages.MAX_DESCRIPTION_BYTES;
import static org.jhpvm.fabric.aeron.ControlMessages.PROBE;
import static org.jhpvm.fabric.aeron.ControlMessages.REPORT;
import static org.jhpvm.fabric.aeron.ControlMessages.exitMessage;
import static org.jhpvm.fabric.aeron.ControlMessages.failMessage;
import static org.jhpvm.fabric.aeron.ControlMessages.text;

/**
 * The job's control plane, one thread per process: the join (a verified hello from every other process), heartbeats
 * (every 100 ms to every process; a process silent for the heartbeat timeout is lost, and so is a process of the same
 * host whose process id, from its hello, has ended, asked every 300 ms), failures told to every process,
 * a process's goodbye, and rank 0's probes of each job ({@link JobProbes}): its job-wide end by Mattern's
 * four-counter method, told to every process, and the job-wide deadlock test, after which rank 0 gathers every
 * process's description of its PEs (DESCRIBE, DESCRIPTION; any process may gather them, for a timeout too) and
 * reports the deadlock.
 * <p>
 * The messages are {@link ControlMessages}'. Each travels on an exclusive control publication per pair of processes,
 * after that publication's hello.
 */
final class ControlPlane implements Runnable {
    private static final long HEARTBEAT_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Every how many heartbeats the processes of this host are asked whether they live (see checkLiveness). */
    private static final int LIVENESS_EVERY_HEARTBEATS = 3;

    private final AeronFabric fabric;
    private final JobEnvironment env;
    private final int rank;
    private final int processes;
    private final ExclusivePublication[] publications;
    private final Subscription[] subscriptions;
    private final Hello hello;
    private final FragmentAssembler assembler = new FragmentAssembler(this::onMessage);
    private final Int2IntHashMap authorized = new Int2IntHashMap(-1);
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[MAX_DESCRIPTION_BYTES + 64]);
    /** This thread's own messages (heartbeats, probes, reports, done) go here: nothing allocated per message. */
    private final UnsafeBuffer msg = new UnsafeBuffer(new byte[64]);
    private final JobProbes probes;
    private final long[] lastSeenNs;
    private final boolean[] joined;
    private final java.util.concurrent.atomic.AtomicIntegerArray left;
    private final CountDownLatch joinLatch = new CountDownLatch(1);
    private final ConcurrentLinkedQueue<byte[]> outbox = new ConcurrentLinkedQueue<>();
    private int heartbeats;
    // Heartbeats go every 100 ms and a loss must end the job within a second: 5 ms parks when idle (500 us parks woke
    // the thread 2,000 times a second, 2.5% of a core here).
    private final BackoffIdleStrategy idle = new BackoffIdleStrategy(50, 10, 10_000, 5_000_000);
    /** Rank 0's longest sleep on its bell while its probes may be due: the gap of the probes of a job's end. */
    private static final long COORDINATOR_SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MIN_BELL_SLEEP_NS = TimeUnit.MICROSECONDS.toNanos(100);
    private final ControlBell bell;
    private volatile String joinFailure;
    private volatile boolean running = true;
    private volatile boolean stopped;
    private int joinedCount;
    /** The processes of this host, from their hellos: one that has ended is lost without waiting for silence. */
    private final ProcessHandle[] peerProcess;
    private long nextHeartbeatNs;

    // Job state: written by beginJob/close on a PE-launching thread, read here.
    private volatile ProcessFabric.JobHooks hooks;
    private volatile int currentJob;
    private volatile int doneJob;
    private volatile String failure;
    /** The job rank 0 found deadlocked, or 0. */
    private volatile int deadlockedJob;
    private final Descriptions descriptions;

    ControlPlane(final AeronFabric fabric, final JobEnvironment env, final ExclusivePublication[] publications,
                 final Subscription[] subscriptions, final Hello hello) {
        this.fabric = fabric;
        this.env = env;
        this.rank = env.rank();
        this.processes = env.processes();
        this.publications = publications;
        this.subscriptions = subscriptions;
        this.hello = hello;
        this.lastSeenNs = new long[processes];
        this.peerProcess = new ProcessHandle[processes];
        this.joined = new boolean[processes];
        this.left = new java.util.concurrent.atomic.AtomicIntegerArray(processes);
        this.probes = new JobProbes(processes);
        this.bell = new ControlBell(fabric, env);
        this.descriptions = new Descriptions(processes, rank);
    }

    /** Waits for every process's hello; throws with a one-line reason when the join fails or times out. */
    void awaitJoin(final long timeoutMs) {
        try {
            if (!joinLatch.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                final StringBuilder missing = new StringBuilder();
                for (int r = 0; r < processes; r++) {
                    if (r != rank && !joined[r]) {
                        missing.append(missing.isEmpty() ? "" : ", ").append(r).append(" (").append(env.hosts().get(r))
                            .append(')');
                    }
                }
                throw new IllegalStateException("join: no hello within " + timeoutMs + " ms from process(es) "
                    + missing);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("join interrupted", e);
        }
        if (joinFailure != null) {
            throw new IllegalStateException(joinFailure);
        }
    }

    @Override
    public void run() {
        final long now0 = System.nanoTime();
        Arrays.fill(lastSeenNs, now0);
        if (processes == 1) {
            joinLatch.countDown();
        }
        while (running) {
            int work = 0;
            for (final Subscription s : subscriptions) {
                work += s.poll(assembler, 32);
            }
            final long now = System.nanoTime();
            if (joinLatch.getCount() == 0) {
                if (now - nextHeartbeatNs >= 0) {
                    nextHeartbeatNs = now + HEARTBEAT_EVERY_NS;
                    broadcast(msg, header(HEARTBEAT));
                    checkLiveness(now);
                }
                byte[] m;
                while ((m = outbox.poll()) != null) {
                    out.putBytes(0, m);
                    broadcast(out, m.length);
                    work++;
                }
                if (rank == 0) {
                    work += coordinate();
                }
            }
            if (work == 0 && bell.sleeps()) {
                // Straight to the bell: nothing here wants microseconds, and the backoff's spins and yields after
                // every wake-up were the largest part of an idle control thread's CPU (yields are system calls).
                sleepOnBell(System.nanoTime());
            } else {
                idle.idle(work);
            }
        }
        stopped = true;
    }

    // ---------------------------------------------------------------- messages in

    private void onMessage(final DirectBuffer b, final int offset, final int length, final Header header) {
        final int session = header.sessionId();
        final int from = authorized.get(session);
        if (from < 0) {
            final int who = hello.verify(b, offset, length, session, Hello.KIND_CONTROL, rank);
            if (who == -2) {
                joinFailure = "job size mismatch: a process has " + Hello.shape(b, offset) + ", this process (rank "
                    + rank + ") " + hello.shape();
                joinLatch.countDown();
            } else if (who >= 0 && who < processes && !joined[who]) {
                authorized.put(session, who);
                joined[who] = true;
                if (env.hosts().get(who).equals(env.hosts().get(rank))) {
                    peerProcess[who] = ProcessHandle.of(Hello.pid(b, offset)).orElse(null);
                }
                lastSeenNs[who] = System.nanoTime();
                if (++joinedCount == processes - 1) {
                    joinLatch.countDown();
                }
            } else {
                fabric.rejected();
            }
            return;
        }
        if (length < 12 || b.getInt(offset, LE) != MAGIC) {
            fabric.rejected();
            return;
        }
        lastSeenNs[from] = System.nanoTime();
        switch (b.getInt(offset + 4, LE)) {
            case HEARTBEAT -> { }
            case FAIL -> {
                final int nic = b.getInt(offset + 8, LE);
                // The failing PE's process reports its failure itself; a lost process is reported by the lowest
                // rank still here.
                final boolean senderReports = (b.getInt(offset + 12, LE) & FAIL_SENDER_REPORTS) != 0;
                fail(nic, text(b, offset + 16, length - 16), senderReports || !reportsLosses());
            }
            case PROBE -> {
                final int job = b.getInt(offset + 8, LE);
                final int w = b.getInt(offset + 12, LE);
                final ProcessFabric.JobHooks h = hooks;
                boolean done = false;
                long consumed = 0;
                long sent = 0;
                long stamp = -1;
                if (h != null && currentJob == job) {
                    done = h.localBodiesDone();
                    consumed = h.framesConsumed();
                    sent = h.framesSent();
                    stamp = h.blockedStamp();
                }
                send(from, msg, report(job, w, done, sent, consumed, stamp));
            }
            case REPORT -> onReport(b.getInt(offset + 8, LE), b.getInt(offset + 12, LE), b.getInt(offset + 16, LE) != 0,
                b.getLong(offset + 20, LE), b.getLong(offset + 28, LE), b.getLong(offset + 36, LE));
            case DESCRIBE -> {
                final int job = b.getInt(offset + 8, LE);
                final ProcessFabric.JobHooks h = hooks;
                final String lines = h != null && currentJob == job ? h.describeLocalPes()
                    : "\n  (process " + rank + ": no longer in that job)";
                send(from, out, Descriptions.answer(out, job, b.getInt(offset + 12, LE), lines));
            }
            case DESCRIPTION -> descriptions.answered(from, b.getInt(offset + 8, LE), b.getInt(offset + 12, LE),
                text(b, offset + 16, length - 16));
            case DONE -> doneJob = Math.max(doneJob, b.getInt(offset + 8, LE));
            case EXIT -> {
                final ProcessFabric.JobHooks h = hooks;
                if (h != null) {
                    h.peerExited(b.getInt(offset + 8, LE), b.getInt(offset + 12, LE));
                    bell.ringLocalNics(); // after the hooks interrupted the PEs: those asleep on a bell look
                }
            }
            case BYE -> {
                left.set(from, 1);
                final ProcessFabric.JobHooks h = hooks;
                if (h != null && doneJob < currentJob) {
                    lost(from, "process " + from + " (" + pesOf(from) + " on " + env.hosts().get(from)
                        + ") left the job before it ended");
                }
            }
            default -> fabric.rejected();
        }
    }

    private void checkLiveness(final long now) {
        // A process of this host is asked every third heartbeat (300 ms): isAlive reads /proc, a fifth of an idle
        // control thread's CPU when asked at every one.
        final boolean askProcesses = ++heartbeats % LIVENESS_EVERY_HEARTBEATS == 0;
        for (int r = 0; r < processes; r++) {
            if (r == rank || left.get(r) != 0) {
                continue;
            }
            final ProcessHandle p = peerProcess[r];
            if (askProcesses && p != null && !p.isAlive()) {
                left.set(r, 1);
                lost(r, "process " + r + " (" + pesOf(r) + " on " + env.hosts().get(r) + ") lost: its "
                    + "process (pid " + p.pid() + ") ended");
            } else if (now - lastSeenNs[r] > TimeUnit.MILLISECONDS.toNanos(env.heartbeatTimeoutMs())) {
                left.set(r, 1);
                lost(r, "process " + r + " (" + pesOf(r) + " on " + env.hosts().get(r) + ") lost: no "
                    + "heartbeat for " + env.heartbeatTimeoutMs() + " ms");
            }
        }
    }

    private void fail(final int nic, final String message, final boolean reportedElsewhere) {
        if (failure == null) {
            failure = message;
        }
        final ProcessFabric.JobHooks h = hooks;
        if (h != null) {
            h.peerFailed(nic, message, reportedElsewhere);
            bell.ringLocalNics(); // after the hooks interrupted the PEs: those asleep on a bell look
        }
    }

    /**
     * A process is lost (it ended, went silent, or left before the job's end): this process's job fails, and the
     * others are told at once (FAIL without the sender's flag), so that each learns the first cause before the
     * goodbyes of processes that end because of it; the lowest rank still here reports it.
     */
    private void lost(final int r, final String message) {
        if (failure == null && hooks != null) {
            outbox.add(failMessage(firstNic(r), 0, message));
            wakeSelf();
        }
        fail(firstNic(r), message, !reportsLosses());
    }

    /** Whether this process reports a lost process to the user: the lowest rank that is still here. */
    private boolean reportsLosses() {
        for (int r = 0; r < rank; r++) {
            if (left.get(r) == 0) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- termination (rank 0)

    private int coordinate() {
        final ProcessFabric.JobHooks h = hooks;
        final int job = currentJob;
        if (h == null || doneJob >= job || deadlockedJob >= job) {
            return 0;
        }
        final int w = probes.start(job, h, System.nanoTime());
        if (w < 0) {
            return 0;
        }
        header(PROBE);
        msg.putInt(8, job, LE);
        msg.putInt(12, w, LE);
        broadcast(msg, 16);
        final long consumed = h.framesConsumed();
        onReport(job, w, h.localBodiesDone(), h.framesSent(), consumed, h.blockedStamp());
        return 1;
    }

    private void onReport(final int job, final int w, final boolean done, final long sent, final long consumed,
                          final long stamp) {
        final ProcessFabric.JobHooks h = hooks;
        if (rank != 0 || h == null || job != currentJob) {
            return;
        }
        switch (probes.report(job, w, done, sent, consumed, stamp, h.deadlockAfterNs(), System.nanoTime())) {
            case ENDED -> {
                header(DONE);
                msg.putInt(8, job, LE);
                broadcast(msg, 12);
                doneJob = Math.max(doneJob, job);
            }
            case DEADLOCKED -> deadlockedJob = job; // the job's launching thread gathers the report and fails
            case NOTHING -> { }
        }
    }

    // ---------------------------------------------------------------- descriptions (any process may gather)

    /**
     * Asks every other process for the lines describing its PEs in {@code job} and waits (at most {@code timeoutNs})
     * for them; called by a job's launching thread, never by the control thread.
     */
    String gather(final int job, final String localLines, final long timeoutNs) {
        outbox.add(descriptions.start(job, localLines));
        wakeSelf();
        return descriptions.await(timeoutNs, r -> "\n  " + pesOf(r) + " (process " + r + " on " + env.hosts().get(r)
            + "): no answer");
    }

    // ---------------------------------------------------------------- messages out

    /** Writes a message's magic and type into {@link #msg}; returns the length of a message without payload. */
    private int header(final int type) {
        msg.putInt(0, MAGIC, LE);
        msg.putInt(4, type, LE);
        msg.putInt(8, 0, LE);
        return 12;
    }

    private int report(final int job, final int w, final boolean done, final long sent, final long consumed,
                       final long stamp) {
        header(REPORT);
        msg.putInt(8, job, LE);
        msg.putInt(12, w, LE);
        msg.putInt(16, done ? 1 : 0, LE);
        msg.putLong(20, sent, LE);
        msg.putLong(28, consumed, LE);
        msg.putLong(36, stamp, LE);
        return 44;
    }

    private void broadcast(final UnsafeBuffer b, final int length) {
        for (int r = 0; r < processes; r++) {
            if (r != rank && left.get(r) == 0) {
                send(r, b, length);
            }
        }
    }

    private void send(final int r, final UnsafeBuffer b, final int length) {
        final ExclusivePublication p = publications[r];
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        long result;
        while ((result = p.offer(b, 0, length)) < 0) {
            if (result == Publication.CLOSED || result == Publication.NOT_CONNECTED
                || System.nanoTime() - deadline > 0) {
                return; // a peer that is gone or stuck is found by its heartbeats
            }
            Thread.onSpinWait();
        }
        bell.ringPeer(r);
    }

    /** Wakes this control thread if it sleeps on its bell (a message to send, or the plane stops). */
    private void wakeSelf() {
        bell.ringSelf();
    }

    /**
     * The control thread's idle step once its backoff would park: on its bell where it has one, until its next
     * heartbeat; rank 0 at most {@link #COORDINATOR_SLEEP_NS} once its PEs' bodies have returned (the end's probes),
     * and until its next deadlock wave while they all wait. A message of another process of the host, one of this
     * process to send, or the last local body's return rings it. The last look, after counting in as a sleeper, polls
     * the subscriptions and the outbox.
     */
    private void sleepOnBell(final long nowNs) {
        long sleepNs = Math.max(MIN_BELL_SLEEP_NS, nextHeartbeatNs - nowNs);
        final ProcessFabric.JobHooks h = hooks;
        if (rank == 0 && h != null) {
            if (h.localBodiesDone()) {
                sleepNs = Math.min(sleepNs, COORDINATOR_SLEEP_NS); // the end's waves are due soon
            } else if (h.deadlockAfterNs() > 0 && probes.nextDeadlockWaveNs() - nowNs < sleepNs && h.blocked()) {
                // Deadlock waves go every 250 ms: an idle job's rank 0 wakes for them, not 100 times a second, and
                // at most every 10 ms while one waits for answers (which ring). blocked() last: it lists threads.
                sleepNs = Math.min(sleepNs, Math.max(COORDINATOR_SLEEP_NS, probes.nextDeadlockWaveNs() - nowNs));
            }
        }
        if (!bell.sleep(sleepNs, this::lastLook)) {
            idle.reset();
        }
    }

    /** The look after counting in as a sleeper: messages in, messages to send, the stop. */
    private int lastLook() {
        int work = 0;
        for (final Subscription s : subscriptions) {
            work += s.poll(assembler, 32);
        }
        return work > 0 || !outbox.isEmpty() || !running ? 1 : 0;
    }

    /** Sends the hellos on every control publication (the opening thread, before this plane runs). */
    boolean sendHellos(final long deadlineNs) {
        for (int r = 0; r < processes; r++) {
            final ExclusivePublication p = publications[r];
            if (p == null) {
                continue;
            }
            final int len = hello.write(out, Hello.KIND_CONTROL, rank, r, p.sessionId());
            long result;
            while ((result = p.offer(out, 0, len)) < 0) {
                if (result == Publication.CLOSED || System.nanoTime() - deadlineNs > 0) {
                    return false;
                }
                Thread.onSpinWait();
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- jobs (called by the job's launching thread)

    /** The number of the job this process began last (0 before its first): every process counts its jobs alike. */
    int currentJob() {
        return currentJob;
    }

    synchronized ProcessFabric.JobSession begin(final ProcessFabric.JobHooks h) {
        if (hooks != null) {
            throw new IllegalStateException("a job is already running on this process's fabric");
        }
        if (failure != null) {
            throw new IllegalStateException("the job has failed: " + failure);
        }
        for (int r = 0; r < processes; r++) {
            if (left.get(r) != 0) {
                throw new IllegalStateException("process " + r + " (" + pesOf(r) + ") has left the job");
            }
        }
        final int job = currentJob + 1;
        currentJob = job;
        hooks = h;
        return new ProcessFabric.JobSession() {
            @Override
            public boolean terminated() {
                return doneJob >= job;
            }

            @Override
            public void localBodiesDone() {
                wakeSelf();
            }

            @Override
            public void reportFailure(final int nic, final String message) {
                if (failure == null) {
                    failure = "PE " + nic + ": " + message;
                }
                outbox.add(failMessage(nic, FAIL_SENDER_REPORTS, message));
                wakeSelf();
                bell.ringLocalNics(); // FM interrupted this process's PEs first
            }

            @Override
            public void reportExit(final int nic, final int status) {
                outbox.add(exitMessage(nic, status));
                wakeSelf();
                bell.ringLocalNics();
            }

            @Override
            public String describeAllPes(final String localLines, final long timeoutNs) {
                return gather(job, localLines, timeoutNs);
            }

            @Override
            public boolean deadlocked() {
                return deadlockedJob >= job;
            }

            @Override
            public boolean reporter() {
                return rank == 0;
            }

            @Override
            public void close() {
                synchronized (ControlPlane.this) {
                    if (hooks == h) {
                        hooks = null;
                    }
                }
            }
        };
    }

    /** Says goodbye to every process and stops the thread; waits for it (bounded). */
    void stop(final Thread thread) {
        if (joinLatch.getCount() == 0 && joinFailure == null) {
            final byte[] bye = new byte[12];
            final UnsafeBuffer b = new UnsafeBuffer(bye);
            b.putInt(0, MAGIC, LE);
            b.putInt(4, BYE, LE);
            outbox.add(bye);
            wakeSelf();
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        while (!outbox.isEmpty() && System.nanoTime() - deadline < 0 && thread.isAlive()) {
            Thread.onSpinWait();
        }
        running = false;
        wakeSelf();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (bounded) until every other process of this host has said goodbye: this process runs their driver. */
    void awaitHostPeersLeft(final long timeoutMs) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (final int r : env.hostPeers()) {
            while (left.get(r) == 0 && System.nanoTime() - deadline < 0 && !stopped) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** @return the failure that ended the job, or null */
    String failure() {
        return failure;
    }

    private int firstNic(final int r) {
        return r * env.pesPerProcess();
    }

    private String pesOf(final int r) {
        final int first = firstNic(r);
        return env.pesPerProcess() == 1 ? "PE " + first : "PEs " + first + ".." + (first + env.pesPerProcess() - 1);
    }
}
