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

    public Progress(final String task, final long steps) {
        this.bar = System.console() == null ? null : new ProgressBarBuilder()
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
