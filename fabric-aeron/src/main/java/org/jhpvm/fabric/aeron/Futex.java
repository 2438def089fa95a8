package org.jhpvm.fabric.aeron;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Linux's futex on a word of shared memory, through the C library's {@code syscall} (the foreign function API): a
 * thread sleeps in the kernel while the word holds a value, and a thread of any process that maps the same memory
 * wakes it. The shared (not process-private) operations, since the word lies in a file every process of the host
 * maps. Available on Linux on x86-64 and AArch64 where the JVM grants this code native access
 * ({@code --enable-native-access=ALL-UNNAMED}, as {@code bin/jhpvm} and the build's tests run); elsewhere
 * {@link #AVAILABLE} is false and nothing here may be called (no warning is printed either).
 */
final class Futex {
    /** Whether the calls below work here. */
    static final boolean AVAILABLE;
    /** Why not, if not (for {@code info} and the README's reader). */
    static final String UNAVAILABLE_BECAUSE;

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long SYS_FUTEX;
    private static final MethodHandle SYSCALL;

    static {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        final long number = switch (arch) {
            case "amd64", "x86_64" -> 202;
            case "aarch64", "arm64" -> 98;
            default -> -1;
        };
        String why = null;
        MethodHandle h = null;
        if (!os.startsWith("linux") || number < 0) {
            why = "futexes are used on Linux on x86-64 and AArch64 only (this is " + os + " on " + arch + ")";
        } else if (!Futex.class.getModule().isNativeAccessEnabled()) {
            why = "native access is not enabled (--enable-native-access=ALL-UNNAMED)";
        } else {
            try {
                final Linker linker = Linker.nativeLinker();
                h = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS,
                        JAVA_INT),
                    Linker.Option.firstVariadicArg(1));
            } catch (RuntimeException | LinkageError e) {
                why = "the C library's syscall could not be linked: " + e;
                h = null;
            }
            if (h != null && !wakes(h, number)) {
                why = "the kernel refused a futex wake (seccomp, or no futexes)";
                h = null;
            }
        }
        SYS_FUTEX = number;
        SYSCALL = h;
        AVAILABLE = h != null;
        UNAVAILABLE_BECAUSE = why;
    }

    private Futex() {
    }

    /** Whether a wake on a word nobody sleeps on succeeds (0 woken), as a sleep's syscall would. */
    private static boolean wakes(final MethodHandle syscall, final long number) {
        try {
            final MemorySegment word = java.lang.foreign.Arena.ofAuto().allocate(4, 4);
            final long r = (long) syscall.invokeExact(number, word, FUTEX_WAKE, 1, MemorySegment.NULL,
                MemorySegment.NULL, 0);
            return r == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * Sleeps while the 4-byte word holds {@code expected}, until woken, for at most {@code timeoutNs}, or not at all if
     * the word holds something else already. May also return early for no reason (a signal): callers look again.
     *
     * @param word      the word (4-byte aligned, in memory every waker maps)
     * @param expected  the value it holds while the caller should sleep
     * @param timeoutNs the longest sleep, positive
     * @param timespec  16 bytes of the caller's own, for the timeout
     */
    static void await(final MemorySegment word, final int expected, final long timeoutNs,
                      final MemorySegment timespec) {
        timespec.set(JAVA_LONG, 0, timeoutNs / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, timeoutNs % 1_000_000_000L);
        try {
            final long r = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAIT, expected, timespec,
                MemorySegment.NULL, 0);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /**
     * Wakes every thread sleeping on the word.
     *
     * @param word the word
     */
    static void wakeAll(final MemorySegment word) {
        try {
            final long r = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAKE, Integer.MAX_VALUE,
                MemorySegment.NULL, MemorySegment.NULL, 0);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }
}
