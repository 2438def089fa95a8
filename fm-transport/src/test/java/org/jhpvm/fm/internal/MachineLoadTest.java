package org.jhpvm.fm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The runnable threads read from a {@code /proc/loadavg} line. */
class MachineLoadTest {
    private static int runnable(final String line) {
        final byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return MachineLoad.runnable(b, b.length);
    }

    @Test
    void shouldReadTheRunnableThreadsBeforeTheSlash() {
        assertEquals(3, runnable("0.52 0.48 0.40 3/412 12345\n"));
        assertEquals(17, runnable("6.40 8.30 6.13 17/78 4524\n"));
        assertEquals(0, runnable("6.40 8.30 6.13\n"), "no fourth field");
        assertEquals(0, runnable("garbage"));
        assertEquals(0, runnable(""));
    }
}
