package org.jhpvm.fm;

/**
 * The thread a PE's program runs on, as {@link FmJob} and the program runner start it: a platform thread that carries
 * one object of the layer above. An API whose calls name no PE (MPI's {@code COMM_WORLD}, one static object shared by
 * every rank of the JVM) finds its caller's state there with a type test on {@link Thread#currentThread()}, where a
 * thread-local lookup (a hash probe and a weak reference) took 5-10 ns of every call.
 *
 * <p>The slot is a cache of the layer's own thread-local, not a replacement: a thread the program starts is an
 * ordinary thread and inherits the thread-local only, and a layer reads the slot first and its thread-local when the
 * slot holds nothing of its own. Only the thread itself reads or writes its slot.
 */
public final class PeThread extends Thread {
    private Object attachment;

    private PeThread(final ThreadGroup group, final Runnable body, final String name) {
        super(group, body, name);
    }

    /**
     * An unstarted daemon PE thread.
     *
     * @param group the thread group (the job's, so that threads the program starts join it)
     * @param name  the thread's name
     * @param body  what it runs
     * @return the thread, not started
     */
    public static PeThread unstarted(final ThreadGroup group, final String name, final Runnable body) {
        final PeThread t = new PeThread(group, body, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * The calling thread's attachment.
     *
     * @return what the layer above attached to the calling thread, or null if nothing is attached or the calling
     *     thread is not a PE thread
     */
    public static Object current() {
        return Thread.currentThread() instanceof PeThread p ? p.attachment : null;
    }

    /**
     * Attaches {@code state} to the calling thread if it is a PE thread (else does nothing).
     *
     * @param state the layer's state for this thread, or null to detach it
     * @return true if the calling thread is a PE thread and now holds {@code state}
     */
    public static boolean attach(final Object state) {
        if (Thread.currentThread() instanceof PeThread p) {
            p.attachment = state;
            return true;
        }
        return false;
    }
}
