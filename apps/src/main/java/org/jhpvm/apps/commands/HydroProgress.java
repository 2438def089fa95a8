package org.jhpvm.apps.commands;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.DoubleConsumer;
import java.util.function.LongSupplier;

import org.jhpvm.apps.Progress;

/**
 * What {@code jhpvm hydro} shows while a run to a time goes, told the time reached after every cycle (on PE 0's
 * thread): on a terminal the progress bar ({@link Progress}) with the rate of steps; elsewhere (a log file, a pipe,
 * CI) a plain line every {@link #LINE_NS} nanoseconds, {@code hydro PROBLEM: cycle N, t = T (P%)}. Either way,
 * {@link #PROJECT_NS} into the run, once: if the cycles left at the time step then (the Courant condition's,
 * {@code (t-end - t) / dt}) would bring the run to more than a minute at the faster of two rates, that of the last
 * {@link #LINE_NS} and that since the start, a warning line with the cycles expected, the time, and how to cut
 * them. Not sooner: in the first seconds the JIT is still compiling and a blast's time step is at its smallest, and
 * a projection from them came out at 25 minutes for a run of 16 s (sedov on 48^2 (r, theta) zones). The faster
 * rate, because the first seconds are slow and a busy machine can stall a run for seconds, and a warning should
 * only be given for a run that is long. From the time step at 10 s the projection still errs high where the step
 * grows later (a blast cooling), by up to 3 times in that run.
 * <p>
 * Per cycle it reads the clock and does arithmetic; it allocates only when it prints.
 */
final class HydroProgress implements DoubleConsumer, AutoCloseable {
    /** At most one plain progress line per 5 s. */
    static final long LINE_NS = 5_000_000_000L;
    /** The projection is made once the run has gone 10 s: past the JIT's compiling and a blast's first steps. */
    static final long PROJECT_NS = 10_000_000_000L;
    /** A run projected to take longer than this is warned about. */
    static final double WARN_SECONDS = 60;

    private final String name;
    private final double tEnd;
    private final int zones;
    private final int dims;
    private final Progress bar;
    private final PrintStream lines;
    private final PrintStream warnings;
    private final LongSupplier clock;
    private final long startNs;
    private long nextLineNs;
    /** The clock and the cycles done at the last line's time: the start of the window the rate is measured over. */
    private long markNs;
    private long markDone;
    private long cycle;
    private long done;
    private double last;
    private int shown;
    private boolean projected;

    /**
     * @param name     the problem's name
     * @param t0       the time the run starts from (0, or a restart's)
     * @param tEnd     the time it runs to
     * @param cycle0   the cycles done before (a restart's)
     * @param zones    zones per dimension (named in the projection's advice)
     * @param dims     the grid's dimensions
     * @param terminal whether to draw the bar (a terminal) or print plain lines
     * @param lines    where plain lines go (standard output)
     * @param warnings where the projection's warning goes (standard error)
     * @param clock    nanoseconds ({@code System::nanoTime}; tests drive their own)
     */
    HydroProgress(final String name, final double t0, final double tEnd, final long cycle0, final int zones,
        final int dims, final boolean terminal, final PrintStream lines, final PrintStream warnings,
        final LongSupplier clock) {
        this.name = name;
        this.tEnd = tEnd;
        this.zones = zones;
        this.dims = dims;
        this.bar = terminal ? new Progress("hydro " + name + " (t x 1000)", 1000) : null;
        this.lines = lines;
        this.warnings = warnings;
        this.clock = clock;
        this.startNs = clock.getAsLong();
        this.nextLineNs = startNs + LINE_NS;
        this.markNs = startNs;
        this.cycle = cycle0;
        this.last = t0;
        this.shown = (int) Math.min(1000, Math.round(1000 * t0 / tEnd));
        if (bar != null) {
            bar.accept(shown);
        }
    }

    /**
     * As {@link #HydroProgress(String, double, double, long, int, int, boolean, PrintStream, PrintStream,
     * LongSupplier)} on this JVM's standard streams and clock, a bar when it runs on a terminal
     * ({@link Progress#terminal()}).
     */
    static HydroProgress of(final String name, final double t0, final double tEnd, final long cycle0,
        final int zones, final int dims) {
        return new HydroProgress(name, t0, tEnd, cycle0, zones, dims, Progress.terminal(), System.out, System.err,
            System::nanoTime);
    }

    @Override
    public void accept(final double t) {
        cycle++;
        done++;
        final double dt = t - last;
        last = t;
        final long now = clock.getAsLong();
        if (bar != null) {
            final int at = (int) Math.min(1000, Math.round(1000 * t / tEnd));
            bar.accept(at - shown);
            shown = at;
            if (done % 16 == 0) {
                bar.message(String.format(Locale.ROOT, "%.0f steps/s", done / ((now - startNs) / 1e9)));
            }
        }
        if (now - nextLineNs >= 0) {
            nextLineNs = now + LINE_NS;
            if (bar == null) {
                lines.printf(Locale.ROOT, "hydro %s: cycle %d, t = %.6g (%.1f%%)%n", name, cycle, t, 100 * t / tEnd);
            }
            if (!projected && now - startNs - PROJECT_NS >= 0) {
                projected = true;
                final double seconds = (now - startNs) / 1e9;
                project(t, dt, seconds, Math.max(done / seconds, (done - markDone) / ((now - markNs) / 1e9)));
            }
            markNs = now;
            markDone = done;
        }
    }

    /** The warning of a long run, from the step now and a rate (cycles per second). */
    private void project(final double t, final double dt, final double seconds, final double rate) {
        if (!(dt > 0) || !(rate > 0) || t >= tEnd) {
            return;
        }
        final double left = (tEnd - t) / dt;
        final double total = seconds + left / rate;
        if (total <= WARN_SECONDS) {
            return;
        }
        warnings.printf(Locale.ROOT, "jhpvm: warning: hydro %s: about %,.0f cycles to t = %.4g at the time step now "
            + "(dt = %.3g, the Courant condition's), about %s in all at the rate so far; halving --zones "
            + "(now %d) cuts the work by %d or more (half the zones per dimension, and at least half the cycles)%n",
            name, cycle + left, tEnd, dt, duration(total), zones, 1 << (dims + 1));
    }

    /** {@code 14 min}, {@code 2.5 h}, {@code 75 s}. */
    static String duration(final double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    /**
     * The cycles counted: those before a restart and the ones told since.
     *
     * @return the cycle count
     */
    long cycle() {
        return cycle;
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
