package org.jhpvm.fm;

import java.util.function.BooleanSupplier;

/**
 * A condition an FM wait ({@link FastMessages#extractUntil}) waits for, which can say what it waits for. When every
 * PE of a job waits and nothing is in flight, or the job times out, the job's report names each PE's call, where the
 * program made it, and what the call waits for, as the layer above tells it here: "PE 0's arrival in a barrier of
 * the world team", "element 2 of SymmetricLongs#0 == 7 (now 0)", "a message from rank 0 with tag 42".
 * <p>
 * A plain {@link BooleanSupplier} works as well; the report then names the call and its place only.
 */
public interface FmWaitCondition extends BooleanSupplier {
    /**
     * Appends what the wait waits for, in a few words and without a trailing period. Called from another thread (the
     * job's watch) while the waiting thread is blocked, so it reads the waiter's state racily: it must not block,
     * throw, change anything or take locks the waiter may hold.
     *
     * @param out where to append
     */
    void describeWait(StringBuilder out);
}
