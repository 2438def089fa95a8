package org.jhpvm.fabric.aeron;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;
import org.jhpvm.fabric.BackoffIdleStrategy;

/**
 * An idle strategy for Aeron's own threads that sleeps longer once they have been idle a while: a backoff (spins,
 * yields, then parks doubling from {@code minParkNs} to {@code maxParkNs}), and, once a duty cycle has found nothing to
 * do for {@code deepAfterNs}, parks of {@code deepParkNs}. Any duty cycle with work ends the spell. On this VM every
 * wake-up of a thread costs 15-50 us of CPU, so a thread that looks 1,000 times a second costs 1.5-5% of a core while
 * a job waits; the cost of a deep park is that the first work after such a spell waits up to one deep park. Used by
 * the one thread of the agent it belongs to.
 *
 * <p>Used for: the media driver in a job whose processes all share this host (IPC only: then the driver is on no
 * message's path; a publisher writes the stream's log and the subscriber reads it, and the driver moves a
 * publication's limit on, 2 MiB ahead of its subscribers here, and keeps time-outs; an idle job's driver found work
 * about once a second, measured); the driver's helper thread (name resolution, log files); Aeron's client conductor
 * (keepalives every 500 ms, images coming and going; a client's own calls wait for their answers themselves).
 */
final class DeepIdleStrategy implements IdleStrategy {
    /** The backoff before the spell is deep (jhpvm's, which says when its next idle step parks). */
    private final BackoffIdleStrategy backoff;
    private final long deepAfterNs;
    private final long deepParkNs;
    /** When the spell without work began (0: the last duty cycle had work, or the backoff has not parked yet). */
    private long idleSinceNs;

    DeepIdleStrategy(final int maxSpins, final int maxYields, final long minParkNs, final long maxParkNs,
                     final long deepAfterNs, final long deepParkNs) {
        if (deepAfterNs < 0 || deepParkNs < maxParkNs) {
            throw new IllegalArgumentException("need deepAfterNs >= 0 and deepParkNs >= maxParkNs");
        }
        this.backoff = new BackoffIdleStrategy(maxSpins, maxYields, minParkNs, maxParkNs);
        this.deepAfterNs = deepAfterNs;
        this.deepParkNs = deepParkNs;
    }

    /**
     * The media driver's, in a job of one host's processes: Aeron's default backoff, 25 ms parks after 20 ms (10 ms
     * parks were 100 of an idle job's 300 wake-ups a second; the cost, a first limit move or command after such a
     * spell waiting up to 25 ms, falls on no message: the limit is 2 MiB ahead of an idle stream's subscribers).
     */
    static DeepIdleStrategy driver(final long maxParkNs) {
        return new DeepIdleStrategy(100, 10, 1_000, maxParkNs, 20_000_000L, 25_000_000L);
    }

    /**
     * A thread that sleeps {@code parkMs} between looks, and 100 ms once idle for 200 ms. (The client conductor, whose
     * keepalive every 500 ms is work, so wakes about 30 times a second in an idle job. Going deep after 40 ms instead
     * halved that, and lost the first frames of a job over UDP: the conductor slept through the images' arrival.)
     */
    static DeepIdleStrategy sleeping(final long parkMs) {
        return new DeepIdleStrategy(0, 0, parkMs * 1_000_000L, parkMs * 1_000_000L, 200_000_000L, 100_000_000L);
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (backoff.nextIdleParks()) {
            final long now = System.nanoTime();
            if (idleSinceNs == 0) {
                idleSinceNs = now;
            }
            if (now - idleSinceNs >= deepAfterNs) {
                LockSupport.parkNanos(deepParkNs);
                return;
            }
        }
        backoff.idle(0);
    }

    @Override
    public void reset() {
        backoff.reset();
        idleSinceNs = 0;
    }

    @Override
    public String alias() {
        return "jhpvm-deep";
    }
}
