package org.jhpvm.mpi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the engine's pool of request operations takes back, and in what state it gives them out again. */
class OpPoolTest {
    @Test
    void aFinishedOperationShouldComeBackClearedAndOnlyOnce() {
        final OpPool pool = new OpPool();
        final RecvOp r = pool.receive();
        r.buf = new byte[8];
        r.tag = 7;
        r.error = 3;
        r.done = true;
        pool.give(r);
        pool.give(r); // a second give (a request finished twice) must not put it in twice
        assertEquals(1, pool.kept());
        final RecvOp again = pool.receive();
        assertSame(r, again);
        assertFalse(again.done, "cleared");
        assertNull(again.buf, "no reference to the old buffer");
        assertEquals(0, again.tag);
        assertEquals(0, again.error);
        assertTrue(again.pooled);
        assertNotSame(r, pool.receive(), "the pool was empty: a new one");
    }

    @Test
    void anOperationNotDoneOrNotThePoolsShouldBeIgnored() {
        final OpPool pool = new OpPool();
        final SendOp s = pool.send();
        pool.give(s); // still in flight: the engine may hold it
        assertEquals(0, pool.kept());
        final SendOp mine = new SendOp();
        mine.done = true;
        pool.give(mine); // not given out by the pool (a collective's, a blocking call's)
        pool.give(SendOp.SENT);
        assertEquals(0, pool.kept());
        s.done = true;
        s.buf = new int[4];
        pool.give(s);
        assertEquals(1, pool.kept());
        final SendOp back = pool.send();
        assertSame(s, back);
        assertNull(back.buf);
        assertFalse(back.done);
    }

    @Test
    void thePoolShouldKeepAtMostItsBound() {
        final OpPool pool = new OpPool();
        final RecvOp[] ops = new RecvOp[OpPool.KEEP + 10];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = pool.receive();
            ops[i].done = true;
        }
        for (final RecvOp r : ops) {
            pool.give(r);
        }
        assertEquals(OpPool.KEEP, pool.kept());
    }
}
