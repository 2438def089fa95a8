package org.jhpvm.apps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.XYChartBuilder;

/** Writing results people and tools read: JSON files (Jackson) and PNG curves (XChart). */
public final class Reports {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Reports() {
    }

    /**
     * A new JSON object for a command's figures, to fill and pass to {@link #writeJson}.
     *
     * @return an empty JSON object to fill
     */
    public static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /**
     * Writes a JSON document, creating parent directories.
     *
     * @param file where
     * @param root what
     * @throws IOException if the file cannot be written
     */
    public static void writeJson(final Path file, final ObjectNode root) throws IOException {
        createParent(file);
        JSON.writeValue(file.toFile(), root);
    }

    /**
     * An XY chart with log axes, as the FM papers draw bandwidth and latency against message size.
     *
     * @param title  chart title
     * @param yTitle y axis title
     * @return the chart, ready for series
     */
    public static XYChart logLogChart(final String title, final String yTitle) {
        final XYChart chart = new XYChartBuilder().width(800).height(500).title(title)
            .xAxisTitle("message size (bytes)").yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        return chart;
    }

    /**
     * Writes charts side by side into one PNG.
     *
     * @param file   where
     * @param charts what
     * @throws IOException if the file cannot be written
     */
    public static void writePng(final Path file, final List<? extends Chart<?, ?>> charts) throws IOException {
        createParent(file);
        BitmapEncoder.saveBitmap(charts, 1, charts.size(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void createParent(final Path file) throws IOException {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    /**
     * A round step for an axis: 1, 2 or 5 times a power of ten, the smallest at least {@code raw} (about a fifth of
     * the axis's span gives five or so ticks).
     *
     * @param raw a positive step
     * @return the round step
     */
    public static double roundStep(final double raw) {
        final double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        final double f = raw / decade;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * decade;
    }
}
