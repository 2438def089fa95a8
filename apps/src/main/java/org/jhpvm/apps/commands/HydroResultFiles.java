package org.jhpvm.apps.commands;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import javax.imageio.ImageIO;

import org.jhpvm.apps.FieldImage;
import org.jhpvm.apps.Reports;
import org.jhpvm.hydro.Geometry;
import org.jhpvm.hydro.HydroConfig;
import org.jhpvm.hydro.HydroRun;
import org.jhpvm.hydro.Problem;
import org.jhpvm.hydro.ZeusSolver;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** What {@code jhpvm hydro} and {@code bench hydro} make of a finished run: the CSV, the plots, the grid's name. */
final class HydroResultFiles {
    private HydroResultFiles() {
    }

    /**
     * Writes a finished run's files into {@code out}: {@code PROBLEM.csv}, {@code PROBLEM.png} (1-D: the profiles;
     * else the density image) and, in 2-D and 3-D where the problem has profiles, {@code PROBLEM-profile.png}; says
     * so on standard output.
     *
     * @return the files written
     */
    static List<Path> write(final HydroRun.Snapshot s, final Problem.Analysis a, final String problem,
        final Path out) throws IOException {
        Files.createDirectories(out);
        final List<Path> written = new ArrayList<>();
        final int d = s.cfg().dims();
        final Path csv = out.resolve(problem + ".csv");
        writeCsv(s, csv);
        written.add(csv);
        final Path png = out.resolve(problem + ".png");
        if (d == 1) {
            BitmapEncoder.saveBitmap(charts(a.panels()), 1, a.panels().size(), png.toString(),
                BitmapEncoder.BitmapFormat.PNG);
        } else {
            final HydroConfig cfg = s.cfg();
            final boolean polar = cfg.geometry() == Geometry.SPHERICAL;
            final String slice = d < 3 ? "" : cfg.geometry() == Geometry.CARTESIAN ? " (mid-plane z slice)"
                : " (mid-plane phi slice)";
            ImageIO.write(FieldImage.of(plane(s), cfg.zones()[0], cfg.zones()[1], plane(cfg),
                polar ? "r sin(theta), across the axis" : cfg.geometry() == Geometry.CYLINDRICAL ? "r" : "x",
                polar ? "r cos(theta), along the axis" : cfg.geometry() == Geometry.CYLINDRICAL ? "z" : "y",
                String.format("%s density%s, t = %.4g, %s zones", problem, slice, s.time(), grid(cfg.zones()))),
                "png", png.toFile());
            if (!a.panels().isEmpty()) {
                final Path prof = out.resolve(problem + "-profile.png");
                BitmapEncoder.saveBitmap(charts(a.panels()), 1, a.panels().size(), prof.toString(),
                    BitmapEncoder.BitmapFormat.PNG);
                System.out.println("wrote " + prof);
                written.add(prof);
            }
        }
        written.add(png);
        System.out.println("wrote " + csv + " and " + png);
        return written;
    }

    /** The grid as {@code NxNxN}. */
    static String grid(final int[] z) {
        final StringBuilder b = new StringBuilder();
        for (final int n : z) {
            b.append(b.isEmpty() ? "" : "x").append(n);
        }
        return b.toString();
    }

    /**
     * Where the zones of the first two coordinates lie in the plane {@link #plane(HydroRun.Snapshot)} draws: the
     * first coordinate at its faces' real positions (ratioed zones as they are), the second uniform; a spherical grid's
     * (r, theta) turned into its meridional plane, {@code (r sin theta, r cos theta)} (the axis theta = 0 up), the
     * others as they are ((x, y), cylindrical (r, z)).
     *
     * @param cfg the grid
     * @return the mapping from zone indices to the plane
     */
    static FieldImage.Mapping plane(final HydroConfig cfg) {
        final boolean polar = cfg.geometry() == Geometry.SPHERICAL;
        final double lo1 = cfg.lo()[1];
        final double d1 = cfg.dx(1);
        return (i, j, xy) -> {
            final int k = Math.min((int) i, cfg.zones()[0] - 1);
            final double r = cfg.face(k) + (i - k) * (cfg.face(k + 1) - cfg.face(k));
            final double t = lo1 + j * d1;
            xy[0] = polar ? r * Math.sin(t) : r;
            xy[1] = polar ? r * Math.cos(t) : t;
        };
    }

    /** Density of the x-y plane (2-D), or of the mid-plane z slice (3-D), as {@code [i * ny + j]}. */
    static double[] plane(final HydroRun.Snapshot s) {
        final int[] z = s.cfg().zones();
        final int nz = z.length == 3 ? z[2] : 1;
        final double[] v = new double[z[0] * z[1]];
        for (int i = 0; i < z[0]; i++) {
            for (int j = 0; j < z[1]; j++) {
                v[i * z[1] + j] = s.at(ZeusSolver.D, (i * z[1] + j) * nz + nz / 2);
            }
        }
        return v;
    }

    /**
     * The CSV's header: the grid's coordinates, rho, its velocity components, p, e. Cartesian {@code x,y,z} and
     * {@code u,v,w}; cylindrical {@code r,z,phi} and {@code v_r,v_z,v_phi}; spherical {@code r,theta,phi} and
     * {@code v_r,v_theta,v_phi} (as many as the grid has dimensions). The values are in those coordinates: a zone's
     * centre (angles in radians) and the velocity's components along them.
     *
     * @param cfg the grid
     * @return the header line
     */
    static String csvHeader(final HydroConfig cfg) {
        final String[] coords = switch (cfg.geometry()) {
            case CARTESIAN -> new String[] {"x", "y", "z"};
            case CYLINDRICAL -> new String[] {"r", "z", "phi"};
            case SPHERICAL -> new String[] {"r", "theta", "phi"};
        };
        final String[] velocity = cfg.geometry() == Geometry.CARTESIAN ? new String[] {"u", "v", "w"}
            : new String[] {"v_" + coords[0], "v_" + coords[1], "v_" + coords[2]};
        final int d = cfg.dims();
        return String.join(",", Arrays.copyOf(coords, d)) + ",rho," + String.join(",", Arrays.copyOf(velocity, d))
            + ",p,e";
    }

    /**
     * Every zone's centre, density, zone-centred velocity, pressure and specific internal energy, round-trip digits,
     * under {@link #csvHeader}.
     */
    static void writeCsv(final HydroRun.Snapshot s, final Path csv) throws IOException {
        final int d = s.cfg().dims();
        final double g1 = s.cfg().gamma() - 1;
        final double[] x = new double[d];
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
            w.println(csvHeader(s.cfg()));
            final StringBuilder line = new StringBuilder();
            for (int z = 0; z < s.zones(); z++) {
                line.setLength(0);
                s.centre(z, x);
                for (int k = 0; k < d; k++) {
                    line.append(String.format("%.17g,", x[k]));
                }
                final double rho = s.at(ZeusSolver.D, z);
                line.append(String.format("%.17g,", rho));
                for (int k = 0; k < d; k++) {
                    line.append(String.format("%.17g,", s.centredVelocity(k, z)));
                }
                final double e = s.at(ZeusSolver.E, z);
                line.append(String.format("%.17g,%.17g", g1 * e, e / rho));
                w.println(line);
            }
        }
    }

    /**
     * Bounds the x axis at multiples of a round step (1, 2 or 5 times a power of ten, about a fifth of the data's
     * span) and prints its ticks with the digits that step needs: left to itself XChart put ticks at the data's own
     * ends (0.015625, 0.203125, ...), and the first label ran off the chart's edge.
     */
    static void niceXAxis(final XYChart c, final Problem.Panel p) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (final double[] xs : new double[][] {p.x(), p.xExact() == null ? new double[0] : p.xExact()}) {
            for (final double x : xs) {
                if (Double.isFinite(x)) {
                    min = Math.min(min, x);
                    max = Math.max(max, x);
                }
            }
        }
        if (!(max > min)) {
            return;
        }
        final double step = Reports.roundStep((max - min) / 5);
        c.getStyler().setXAxisMin(Math.floor(min / step) * step);
        c.getStyler().setXAxisMax(Math.ceil(max / step) * step);
        final int digits = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        c.getStyler().setXAxisDecimalPattern(digits == 0 ? "0" : "0." + "#".repeat(digits + 1));
    }

    /** One chart per panel: the exact profile as a line (where there is one), the run's as points. */
    static List<XYChart> charts(final List<Problem.Panel> panels) {
        final List<XYChart> charts = new ArrayList<>();
        for (final Problem.Panel p : panels) {
            final XYChart c = new XYChartBuilder().width(600).height(450).title(p.title()).xAxisTitle(p.xLabel())
                .yAxisTitle(p.yLabel()).build();
            c.getStyler().setMarkerSize(4);
            niceXAxis(c, p);
            if (p.xExact() != null) {
                c.addSeries("exact", p.xExact(), p.yExact()).setMarker(SeriesMarkers.NONE);
            }
            final int[] keep = java.util.stream.IntStream.range(0, p.y().length).filter(i -> !Double.isNaN(p.y()[i]))
                .toArray(); // shells no zone centre falls in
            final XYSeries zeus = c.addSeries("ZEUS", Arrays.stream(keep).mapToDouble(i -> p.x()[i]).toArray(),
                Arrays.stream(keep).mapToDouble(i -> p.y()[i]).toArray());
            zeus.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            zeus.setMarker(SeriesMarkers.CIRCLE);
            charts.add(c);
        }
        return charts;
    }
}
