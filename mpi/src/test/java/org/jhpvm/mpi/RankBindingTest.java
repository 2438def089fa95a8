package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import mpi.MPI;
import mpi.MPIException;

import org.jhpvm.fm.PeThread;
import org.jhpvm.mpi.internal.Engine;
import org.jhpvm.mpi.internal.RankBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a call on {@code COMM_WORLD} finds its rank: the rank's own thread carries its engine in its PE thread's slot,
 * a thread the rank starts finds it by the inherited thread-local, and an unbound thread finds none.
 */
@Timeout(60)
class RankBindingTest {
    @Test
    void aRanksThreadCarriesItsOwnEngineAndThreadsItStartsFindTheSameRank() {
        final ConcurrentHashMap<Integer, Engine> engines = new ConcurrentHashMap<>();
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final Engine e = RankBinding.current();
            engines.put(me, e);
            assertTrue(Thread.currentThread() instanceof PeThread, "MpiJob runs a rank on a PE thread");
            assertSame(e, PeThread.current(), "the rank's thread holds its engine");
            final AtomicReference<Object> child = new AtomicReference<>();
            final AtomicReference<Object> childRank = new AtomicReference<>();
            final Thread t = new Thread(() -> {
                child.set(RankBinding.current());
                try {
                    childRank.set(MPI.COMM_WORLD.getRank());
                } catch (MPIException x) {
                    childRank.set(x);
                }
            });
            t.start();
            t.join();
            assertSame(e, child.get(), "a thread the rank starts inherits the rank");
            assertEquals(me, childRank.get());

            RankBinding.unbind();
            assertNull(RankBinding.current(), "unbound, the thread is no rank");
            assertNull(PeThread.current(), "unbound, the slot is empty");
            assertThrows(MPIException.class, MPI.COMM_WORLD::getRank);
            RankBinding.bind(e);
            assertEquals(me, MPI.COMM_WORLD.getRank());
            MPI.Finalize();
        });
        assertEquals(2, engines.size());
        assertNotSame(engines.get(0), engines.get(1), "each rank has an engine of its own");
    }
}
