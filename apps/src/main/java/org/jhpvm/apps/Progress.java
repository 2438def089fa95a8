package org.jhpvm.apps;

import java.util.function.IntConsumer;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error for long runs, shown only on a terminal (CI logs stay clean).
 */
public final class Progress implements AutoCloseable, IntConsumer {
    private final ProgressBar bar;

    /**
     * Whether this JVM runs on a terminal: {@code System.console()} is there and is one (since JDK 22 a console may
     * exist for redirected streams too; {@code isTerminal} tells them apart).
     *
     * @return true on a terminal, false when standard input or output is a file or a pipe
     */
    public static boolean terminal() {
        final java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    /**
     * Starts the bar, drawn on standard error only when the JVM runs on a terminal ({@link #terminal()});
     * otherwise every call does nothing.
     *
     * @param task  name shown before the bar
     * @param steps steps that make 100%: the sum of what {@link #accept(int)} will be told
     */
    public Progress(final String task, final long steps) {
        this.bar = !terminal() ? null : new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(steps)
            .setStyle(ProgressBarStyle.ASCII)
            .setUpdateIntervalMillis(200)
            .continuousUpdate()
            .build();
    }

    @Override
    public void accept(final int steps) {
        if (bar != null) {
            bar.stepBy(steps);
        }
    }

    /**
     * Sets the text shown after the bar, replacing the previous one; a no-op without a terminal.
     *
     * @param text shown after the bar (e.g. a rate)
     */
    public void message(final String text) {
        if (bar != null) {
            bar.setExtraMessage(text);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
