package org.jhpvm.apps;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * How {@code launch} starts a user's main class in each process: it runs the class's {@code main} and then ends the
 * process (status 0, or 1 with the failure printed), as {@code bin/jhpvm}'s own commands do. Without it a process
 * whose {@code main} returned would live on: a launched job's Aeron client and media driver threads are not daemon
 * threads, so the JVM would wait for them for ever. The fabric's shutdown hook says goodbye to the other processes.
 */
public final class LaunchedMain {
    private LaunchedMain() {
    }

    /**
     * Runs {@code args[0]}'s {@code main} with the rest of the arguments, then exits.
     *
     * @param args the main class, then its arguments
     */
    public static void main(final String[] args) {
        if (args.length == 0) {
            System.err.println("jhpvm: LaunchedMain needs a main class");
            System.exit(2);
        }
        int status = 0;
        try {
            final Method main = Class.forName(args[0]).getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                throw new NoSuchMethodException(args[0] + ".main is not static");
            }
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            // What the JVM does with an exception main throws (report it through the thread's handler); then this
            // process ends with status 1, which makes launch end the job naming it.
            final Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e.getCause());
            status = 1;
        } catch (ReflectiveOperationException e) {
            System.err.println("jhpvm: cannot run " + args[0] + ": " + e);
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }
}
