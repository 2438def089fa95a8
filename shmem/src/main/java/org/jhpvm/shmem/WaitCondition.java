package org.jhpvm.shmem;

import org.jhpvm.fm.FmWaitCondition;

/**
 * A wait's condition together with what it waits for, in words, for the job's deadlock and timeout reports; one
 * (anonymous) subclass per call site, made once (nothing allocated per wait, and the test is called as directly as a
 * lambda's). The words are built only when a report is, from another thread while the waiter is blocked, so they
 * read the waiter's fields racily.
 */
abstract class WaitCondition implements FmWaitCondition {

    /** Appends "SymmetricLongs#3[5] of PE 1" style element names: {@code what[index]} and its value now. */
    static void element(final StringBuilder out, final SymmetricArray s, final int index) {
        out.append(s.getClass().getSimpleName()).append('#').append(s.id).append('[').append(index).append(']');
        if (index >= 0 && index < java.lang.reflect.Array.getLength(s.array)) {
            out.append(" (now ").append(java.lang.reflect.Array.get(s.array, index)).append(')');
        }
    }
}
