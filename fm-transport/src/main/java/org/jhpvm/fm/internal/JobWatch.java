package org.jhpvm.fm.internal;

import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FmWaitCondition;

/**
 * Tells a deadlocked job from a slow one, and says what each PE is doing (for the deadlock report and for timeouts).
 * <p>
 * A job of this JVM is deadlocked when, for at least {@code afterNs}, every local PE waits in an FM wait that idles
 * (or waits at the end of the job, its body done, while some other PE does not), the frames consumed equal the frames
 * sent and neither moves, no wait ends, every PE has looked at its condition again since the state was first seen and
 * still waits, and no other thread of the program runs: every platform thread of the program's thread group other
 * than the PE threads and the waiting ones is parked without a deadline (WAITING) or blocked on a monitor. A thread of
 * the program that runs, sleeps or waits with a deadline may still end a wait (a store into a PE's memory), so the
 * job is then never called deadlocked; nor is it while a frame is in flight or waits in a NIC, while a PE computes,
 * or at thread level MULTIPLE, whose waits between turns are not FM waits. Virtual threads the program starts are not
 * seen (they belong to no thread group).
 * <p>
 * In a job of several processes the same test runs per process ({@link #blockedStamp}), and the control plane adds
 * the frames up across processes. Thread-safe: the job's launching thread and the control plane's thread look.
 */
public final class JobWatch {
    private final JobControl job;
    private final Endpoint[] endpoints;
    private final Thread[] peThreads;
    private final ThreadGroup program;
    private final long afterNs;
    private static final long STAMP_EVERY_NS = 20_000_000;

    private final long[] baseLooks;
    private long stampAtNs = System.nanoTime() - STAMP_EVERY_NS;
    private long stamp = -1;
    private boolean armed;
    private long sinceNs;
    private long baseStamp;
    private long baseSent;

    /**
     * @param job       the job
     * @param endpoints the local PEs' endpoints
     * @param peThreads the threads the job started for them, and the one that runs the job (not the program's own)
     * @param program   the thread group of the program's threads
     * @param afterNs   how long the state must hold
     */
    public JobWatch(final JobControl job, final Endpoint[] endpoints, final Thread[] peThreads,
                    final ThreadGroup program, final long afterNs) {
        this.job = job;
        this.endpoints = endpoints.clone();
        this.peThreads = peThreads.clone();
        this.program = program;
        this.afterNs = afterNs;
        this.baseLooks = new long[endpoints.length];
    }

    /**
     * One look at the job (cheap while some PE does not wait), in a job whose PEs all run in this JVM.
     *
     * @param nowNs {@code System.nanoTime()}
     * @return true once the job has been deadlocked for {@code afterNs}
     */
    public boolean deadlocked(final long nowNs) {
        return look(nowNs, true) && nowNs - sinceNs >= afterNs;
    }

    /**
     * This process's part of the job-wide test, for the control plane: whether every local PE has waited since the
     * local state was first seen, nothing stuck in a NIC and no other thread of the program running, and each PE has
     * looked at its condition again since (else -1); then the count of waits ended when that state began, which
     * moves whenever a local wait ends. The frames are counted job-wide by the control plane.
     *
     * @return -1, or a count that two calls return alike only if no local wait ended in between
     */
    public synchronized long blockedStamp() {
        // Asked at every probe, which may come often (the end-of-job waves): look at most every STAMP_EVERY_NS.
        final long nowNs = System.nanoTime();
        if (nowNs - stampAtNs >= STAMP_EVERY_NS) {
            stampAtNs = nowNs;
            stamp = look(nowNs, false) ? baseStamp : -1;
        }
        return stamp;
    }

    /**
     * A look without memory: whether every local PE waits idle and no other thread of the program runs.
     *
     * @return true if so
     */
    public boolean blocked() {
        return localPesBlocked(false);
    }

    /**
     * Looks at the local state and keeps a baseline of it while it holds.
     *
     * @return true if every PE waits, the state has not changed since the baseline and every PE has looked at its
     *     condition since
     */
    private synchronized boolean look(final long nowNs, final boolean countFrames) {
        // In one JVM some PE must still run its body (else the job simply ends); across processes the control plane
        // checks that job-wide.
        if (!localPesBlocked(countFrames) || nicsPending()) {
            armed = false;
            return false;
        }
        final long consumed = countFrames ? job.framesConsumed() : 0;
        final long sent = countFrames ? job.framesSent() : 0;
        if (sent != consumed) {
            armed = false;
            return false;
        }
        final long stamp = waitsEnded();
        if (!armed || stamp != baseStamp || sent != baseSent) {
            armed = true;
            sinceNs = nowNs;
            baseStamp = stamp;
            baseSent = sent;
            for (int i = 0; i < endpoints.length; i++) {
                baseLooks[i] = endpoints[i].waits().looks();
            }
            return false;
        }
        for (int i = 0; i < endpoints.length; i++) {
            if (endpoints[i].waits().looks() == baseLooks[i]) {
                return false; // has not looked at its condition since: it may yet find it true
            }
        }
        return true;
    }

    /**
     * One line per local PE: what it waits in, where the program called it and what for, or where it runs.
     *
     * @param out where to append; each line starts with a newline
     */
    public void describe(final StringBuilder out) {
        for (int i = 0; i < endpoints.length; i++) {
            final Endpoint ep = endpoints[i];
            out.append("\n  PE ").append(ep.pe()).append(": ");
            final BooleanSupplier waitsFor = ep.waits().idleFor();
            final Thread waiter = ep.waits().idleThread();
            if (waitsFor == IdleWait.FINISHED) {
                out.append("finished (its body returned; it waits for the others at the end of the job)");
            } else if (waitsFor != null && waiter != null) {
                CallSites.append(waiter, out);
                if (waitsFor instanceof FmWaitCondition c) {
                    out.append(", waiting for ");
                    try {
                        c.describeWait(out);
                    } catch (RuntimeException e) {
                        out.append("(unknown: ").append(e).append(')');
                    }
                }
            } else if (i < peThreads.length && peThreads[i] != null && peThreads[i].isAlive()) {
                if (!CallSites.append(peThreads[i], out)) {
                    out.append(" (not waiting in a communication call)");
                }
            } else {
                out.append("ended");
            }
        }
    }

    /**
     * Every local PE idles in a wait (with {@code someUnfinished}, not every one at the end of the job), and no other
     * thread of the program runs.
     */
    private boolean localPesBlocked(final boolean needUnfinished) {
        boolean someUnfinished = false;
        for (final Endpoint ep : endpoints) {
            final BooleanSupplier w = ep.waits().idleFor();
            if (w == null) {
                return false;
            }
            someUnfinished |= w != IdleWait.FINISHED;
        }
        return (someUnfinished || !needUnfinished) && !programRuns();
    }

    private long waitsEnded() {
        long s = 0;
        for (final Endpoint ep : endpoints) {
            s += ep.waits().waitsEnded();
        }
        return s;
    }

    private boolean nicsPending() {
        for (final Endpoint ep : endpoints) {
            if (ep.nicPendingFrames() > 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether a thread of the program other than the PE threads and the waiting ones may be doing something. */
    private boolean programRuns() {
        if (program == null) {
            return false;
        }
        Thread[] threads = new Thread[program.activeCount() + 8];
        int n;
        while ((n = program.enumerate(threads, true)) == threads.length) {
            threads = new Thread[2 * threads.length];
        }
        for (int i = 0; i < n; i++) {
            final Thread t = threads[i];
            if (own(t)) {
                continue;
            }
            final Thread.State s = t.getState();
            if (s != Thread.State.WAITING && s != Thread.State.BLOCKED && s != Thread.State.TERMINATED) {
                return true;
            }
        }
        return false;
    }

    private boolean own(final Thread t) {
        for (final Thread p : peThreads) {
            if (p == t) {
                return true;
            }
        }
        for (final Endpoint ep : endpoints) {
            if (ep.waits().idleThread() == t) {
                return true;
            }
        }
        return false;
    }
}
