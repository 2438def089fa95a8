package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jhpvm.apps.Main;
import org.junit.jupiter.api.Test;

/** {@code launch} starts its processes with the entry point it names rather than imports. */
class EntryClassTest {
    @Test
    void launchedProcessesShouldStartBinJhpvmsEntryPoint() {
        assertEquals(Main.class.getName(), LaunchCommand.ENTRY_CLASS);
        assertEquals(JhpvmCommand.FAILURE, Main.FAILURE);
        assertEquals(JhpvmCommand.USAGE, Main.USAGE);
    }
}
