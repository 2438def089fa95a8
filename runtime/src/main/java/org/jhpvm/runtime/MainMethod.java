package org.jhpvm.runtime;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The method Java's launcher would start in a class, chosen by its rules (JDK 25, JEP 512): a non-private
 * {@code main(String[])}, else a non-private {@code main()}, declared in the class or inherited; static, or an
 * instance method of an object made with the class's non-private no-argument constructor.
 *
 * @param type     the class launched
 * @param method   its main method (accessible)
 * @param withArgs true if it takes the arguments
 */
record MainMethod(Class<?> type, Method method, boolean withArgs) {
    /**
     * @param type the class to launch
     * @return its main method
     * @throws IllegalArgumentException if it has none the launcher would start (naming the class)
     */
    static MainMethod of(final Class<?> type) {
        Method m = find(type, true);
        final boolean withArgs = m != null;
        if (m == null) {
            m = find(type, false);
        }
        if (m == null) {
            throw new IllegalArgumentException("class " + type.getName() + " has no main method: define "
                + "'public static void main(String[] args)' (or 'void main()')");
        }
        if (!Modifier.isStatic(m.getModifiers()) && noArgConstructor(type) == null) {
            throw new IllegalArgumentException("class " + type.getName() + " has an instance main method but no "
                + "non-private constructor without arguments");
        }
        m.setAccessible(true);
        return new MainMethod(type, m, withArgs);
    }

    /**
     * Runs it on the calling thread.
     *
     * @param args the program's arguments
     * @throws Throwable whatever the program throws (unwrapped)
     */
    void invoke(final String[] args) throws Throwable {
        try {
            Object target = null;
            if (!Modifier.isStatic(method.getModifiers())) {
                target = noArgConstructor(type).newInstance();
            }
            if (withArgs) {
                method.invoke(target, (Object) args);
            } else {
                method.invoke(target);
            }
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Method find(final Class<?> type, final boolean withArgs) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (final Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("main") && !Modifier.isPrivate(m.getModifiers())
                    && m.getReturnType() == void.class && (withArgs
                    ? m.getParameterCount() == 1 && m.getParameterTypes()[0] == String[].class
                    : m.getParameterCount() == 0)) {
                    return m;
                }
            }
        }
        return null;
    }

    private static Constructor<?> noArgConstructor(final Class<?> type) {
        try {
            final Constructor<?> c = type.getDeclaredConstructor();
            if (Modifier.isPrivate(c.getModifiers())) {
                return null;
            }
            c.setAccessible(true);
            return c;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
