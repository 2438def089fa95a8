package org.jhpvm.fabric;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A fabric that spans several processes (and hosts), of which this process hosts the NICs
 * {@link #firstLocalNic()} .. {@code firstLocalNic() + localNicCount() - 1}; the others are destinations only
 * ({@link #nic(int)} of a remote NIC throws). Besides frames it carries what a job of several processes needs
 * from below: the join of every process, a failure seen by one process told to all (and a process that stops
 * answering detected), and the job-wide end of a job (every body done, every frame consumed).
 * <p>
 * A process joins at most one such fabric, the one its launcher describes in the environment ({@link #launched()});
 * it stays open for the life of the process and carries the process's jobs one after another. Every process must
 * run the same jobs in the same order (as MPI programs run the same collectives).
 */
public interface ProcessFabric extends Fabric {
    /**
     * This process's place among the job's processes, fixed when it joined; the launcher assigns it.
     *
     * @return this process's rank, {@code 0 .. processes()-1}
     */
    int rank();

    /**
     * The number of processes that joined the job, fixed when they joined (a process that is later lost still
     * counts).
     *
     * @return number of processes in the job
     */
    int processes();

    /**
     * The lowest NIC id this process hosts; its NICs are the {@link #localNicCount()} consecutive ids from here.
     *
     * @return the first NIC this process hosts
     */
    int firstLocalNic();

    /**
     * How many NICs this process hosts (one per PE it runs), at least 1; the rest of the fabric's
     * {@link #nicCount()} NICs are destinations only.
     *
     * @return number of NICs this process hosts
     */
    int localNicCount();

    /**
     * Whether this process hosts a NIC, that is whether {@link #nic(int)} gives it out. Any int is accepted: an id
     * outside the fabric is simply not local.
     *
     * @param nic a NIC id
     * @return true if this process hosts it
     */
    default boolean isLocal(final int nic) {
        return nic >= firstLocalNic() && nic < firstLocalNic() + localNicCount();
    }

    /**
     * How many of the job's processes run on this host, this one included: they share its cores (FM's waits spin
     * only while the PE threads that run fit this process's share).
     *
     * @return processes on this host, at least 1
     */
    default int processesOnHost() {
        return 1;
    }

    /**
     * Starts this process's next job.
     *
     * @param hooks what the fabric reads and tells during the job
     * @return the job's session; close it when the job has ended
     * @throws IllegalStateException if a process has failed or left, or another job is running
     */
    JobSession beginJob(JobHooks hooks);

    /** What a job of several processes gives the fabric and is told by it. Called from the fabric's own thread. */
    interface JobHooks {
        /**
         * Whether this process's share of the job is over: the fabric's end-of-job detection waits until every
         * process answers true and no frame is left in flight.
         *
         * @return true once every local PE's body has returned
         */
        boolean localBodiesDone();

        /**
         * The running count of data frames the local PEs have sent since the job began. The fabric reads it after
         * {@link #framesConsumed()}: a frame consumed before the first read was sent before the second, so the sent
         * total never lags the consumed one.
         *
         * @return data frames the local PEs have sent (read after {@link #framesConsumed()})
         */
        long framesSent();

        /**
         * The running count of data frames the local PEs have consumed since the job began; the fabric compares
         * its job-wide sum with that of {@link #framesSent()} to tell that no frame is left in flight.
         *
         * @return data frames the local PEs have consumed
         */
        long framesConsumed();

        /**
         * A PE elsewhere failed, or a process was lost: the job must abort.
         *
         * @param nic     the failed PE (the first PE of a lost process)
         * @param message what happened, one line
         */
        void peerFailed(int nic, String message);

        /**
         * As {@link #peerFailed(int, String)}, saying whether another process reports the failure to the user: the
         * failing PE's own process for a failure it told, one surviving process (the lowest rank) for a process that
         * was lost. A process that does not report it ends with a failure status and says nothing more, so that the
         * job's output holds each failure once.
         *
         * @param nic                the failed PE (the first PE of a lost process)
         * @param message            what happened, one line
         * @param reportedElsewhere  whether another process reports it
         */
        default void peerFailed(final int nic, final String message, final boolean reportedElsewhere) {
            peerFailed(nic, message);
        }

        /**
         * This process's part of the job-wide deadlock test, asked once per probe: -1 unless every local PE has
         * been waiting idle (an FM wait, or the end of the job) since some moment, each has looked at its condition
         * since then, nothing is stuck in a local NIC and no other thread of the program runs; otherwise a number
         * that moves whenever a local wait ends. The fabric calls the job deadlocked when every process answers the
         * same number in probes at least {@link #deadlockAfterNs()} apart, with the same job-wide frame counts, the
         * frames sent equal to those consumed, and some body not done.
         *
         * @return -1, or the local wait count
         */
        default long blockedStamp() {
            return -1;
        }

        /**
         * A cheap look (no state kept) at whether every local PE waits idle, for pacing the deadlock probes.
         *
         * @return true if every local PE waits
         */
        default boolean blocked() {
            return false;
        }

        /**
         * How long the job-wide deadlock state must hold before the job is ended.
         *
         * @return nanoseconds, or 0 for no deadlock test
         */
        default long deadlockAfterNs() {
            return 0;
        }

        /**
         * One line per local PE (each starting with a newline): the call it waits in, where the program made it and
         * what it waits for, or where it runs; for the job-wide deadlock and timeout reports.
         *
         * @return the lines
         */
        default String describeLocalPes() {
            return "";
        }

        /**
         * A PE elsewhere ended the whole job with an exit status ({@code shmem_global_exit}): the job must end, and
         * this process with the same status.
         *
         * @param nic    the PE that asked for the exit
         * @param status its exit status
         */
        void peerExited(int nic, int status);
    }

    /** One job on the fabric. */
    interface JobSession extends AutoCloseable {
        /**
         * Whether the job has ended on every process, as the fabric's end-of-job detection last established it; a
         * cheap read that never blocks, polled by the job's exit barrier. Once true it stays true.
         *
         * @return true once every process's bodies are done and every frame sent in the job has been consumed
         */
        boolean terminated();

        /**
         * Tells every other process that a local PE failed, so that their PEs abort promptly.
         *
         * @param nic     the failed PE
         * @param message what happened, one line
         */
        void reportFailure(int nic, String message);

        /**
         * Gathers every process's {@link JobHooks#describeLocalPes()} (this process's given here), for a report that
         * names every PE of the job, such as a timeout's; waits at most {@code timeoutNs} for the other processes,
         * naming those that did not answer. Called by the job's launching thread.
         *
         * @param localLines this process's lines
         * @param timeoutNs  longest wait for the others
         * @return the lines of every process, in rank order
         */
        default String describeAllPes(final String localLines, final long timeoutNs) {
            return localLines;
        }

        /**
         * Whether the job-wide deadlock test has found the job deadlocked (on rank 0 only: the process that reports
         * it); the job then gathers every PE's state ({@link #describeAllPes}) and fails with the report.
         *
         * @return true once found
         */
        default boolean deadlocked() {
            return false;
        }

        /**
         * Whether this process reports job-wide events (a timeout, a deadlock) for the whole job: rank 0.
         *
         * @return true on rank 0
         */
        default boolean reporter() {
            return true;
        }

        /**
         * Tells every other process that a local PE ended the whole job with an exit status, so that their PEs end
         * promptly and their processes with the same status.
         *
         * @param nic    the PE that asked for the exit
         * @param status its exit status
         */
        void reportExit(int nic, int status);

        /**
         * Says that every local PE's body has returned ({@link JobHooks#localBodiesDone()} is now true): the process
         * that detects the job's end may start looking at once. The default does nothing (it looks now and then).
         */
        default void localBodiesDone() {
        }

        /** Ends the session (the next job may begin). */
        @Override
        void close();
    }

    /** Opens the fabric a launcher described in the environment (found with {@link ServiceLoader}). */
    interface Provider {
        /**
         * Joins the fabric of the launched job this process belongs to, or returns the one already joined: a
         * process joins at most once. {@link ProcessFabric#launched()} asks each provider in turn and takes the
         * first fabric offered.
         *
         * @return the process's fabric if the environment says this process is one of a launched job, empty
         *     otherwise
         * @throws IllegalArgumentException if the environment describes a job badly (missing secret, size
         *                                  mismatch, ...)
         * @throws IllegalStateException    if the join fails
         */
        Optional<ProcessFabric> launched();
    }

    /**
     * The fabric of the launched job this process belongs to, joined on the first call.
     *
     * @return the fabric, or empty if this process was not started as part of a job of several processes
     * @throws IllegalArgumentException if the environment describes a job badly
     * @throws IllegalStateException    if the join fails
     */
    static Optional<ProcessFabric> launched() {
        for (final Provider p : ServiceLoader.load(Provider.class)) {
            final Optional<ProcessFabric> f = p.launched();
            if (f.isPresent()) {
                return f;
            }
        }
        return Optional.empty();
    }
}
