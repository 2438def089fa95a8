package org.jhpvm.apps;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.util.Locale;

/**
 * A false-colour image of a 2-D field on a grid of zones drawn where the zones lie in a plane (a Cartesian grid's
 * squares, the rings of a spherical (r, theta) grid's meridional plane), with a title, axes with ticks and labels,
 * and a colour bar, for hydro's PNGs.
 */
public final class FieldImage {
    /** Viridis, sampled at 0, 1/4, 1/2, 3/4, 1. */
    private static final int[][] MAP = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    /** The longer side of the plot, in pixels. */
    private static final int PLOT = 512;
    private static final int LEFT = 80;
    private static final int TOP = 40;
    private static final int BOTTOM = 56;
    private static final int BAR = 24;
    /** Points per zone edge: enough for an arc of a zone a few degrees wide to look round. */
    private static final int EDGE = 4;

    private FieldImage() {
    }

    /** Where the points of the grid lie in the picture's plane. */
    public interface Mapping {
        /**
         * Sets {@code xy} to the position of the grid point at fractional zone indices ({@code (i, j)} is the lower
         * corner of zone (i, j); {@code (nx, ny)} the grid's far corner).
         *
         * @param i  the first index, 0 to nx
         * @param j  the second index, 0 to ny
         * @param xy receives the point's x and y
         */
        void at(double i, double j, double[] xy);
    }

    /**
     * Draws {@code v} in the viridis colour map scaled from its minimum to its maximum (a constant field in the lowest
     * colour): each zone a polygon through its corners and points along its edges placed by {@code m}, the plane
     * scaled alike along x and y so that the longer side is 512 pixels, with axes ticked at round values, the title
     * above and a colour bar labelled with the minimum and maximum.
     *
     * @param v      values, {@code v[i * ny + j]} at zone (i, j)
     * @param nx     zones along the first index
     * @param ny     zones along the second index
     * @param m      where the zones' corners lie
     * @param xLabel the horizontal axis's name
     * @param yLabel the vertical axis's name
     * @param title  title line
     * @return the image
     */
    public static BufferedImage of(final double[] v, final int nx, final int ny, final Mapping m, final String xLabel,
        final String yLabel, final String title) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (final double x : v) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        // The plane's extent: every point a zone's polygon goes through.
        final double[] xy = new double[2];
        final double[] box = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY};
        for (int i = 0; i <= nx * EDGE; i++) {
            for (int j = 0; j <= ny * EDGE; j += i % EDGE == 0 ? 1 : EDGE) {
                m.at((double) i / EDGE, (double) j / EDGE, xy);
                box[0] = Math.min(box[0], xy[0]);
                box[1] = Math.max(box[1], xy[0]);
                box[2] = Math.min(box[2], xy[1]);
                box[3] = Math.max(box[3], xy[1]);
            }
        }
        final double width = box[1] - box[0];
        final double height = box[3] - box[2];
        final double scale = PLOT / Math.max(width, height);
        final int w = (int) Math.ceil(width * scale);
        final int h = (int) Math.ceil(height * scale);
        final BufferedImage img = new BufferedImage(LEFT + w + 40 + BAR + 80, TOP + h + BOTTOM,
            BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        final double span = max > min ? max - min : 1;
        final int[] px = new int[4 * EDGE];
        final int[] py = new int[4 * EDGE];
        for (int i = 0; i < nx; i++) {
            for (int j = 0; j < ny; j++) {
                // Round the zone: along its lower edge, up its far side, back along its upper edge, down.
                for (int e = 0; e < EDGE; e++) {
                    final double f = (double) e / EDGE;
                    corner(m, i + f, j, xy, box, scale, h, px, py, e);
                    corner(m, i + 1, j + f, xy, box, scale, h, px, py, EDGE + e);
                    corner(m, i + 1 - f, j + 1, xy, box, scale, h, px, py, 2 * EDGE + e);
                    corner(m, i, j + 1 - f, xy, box, scale, h, px, py, 3 * EDGE + e);
                }
                final Polygon zone = new Polygon(px, py, px.length);
                g.setColor(colour((v[i * ny + j] - min) / span));
                g.fillPolygon(zone);
                g.drawPolygon(zone); // no seams between neighbours
            }
        }
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        axes(g, box, scale, w, h, xLabel, yLabel);
        final int bx = LEFT + w + 40;
        for (int y = 0; y < h; y++) {
            g.setColor(colour(1 - (double) y / Math.max(1, h - 1)));
            g.fillRect(bx, TOP + y, BAR, 1);
        }
        g.setColor(Color.BLACK);
        g.drawString(title, LEFT, TOP - 16);
        g.drawString(String.format(Locale.ROOT, "%.4g", max), bx, TOP - 4);
        g.drawString(String.format(Locale.ROOT, "%.4g", min), bx, TOP + h + 16);
        g.dispose();
        return img;
    }

    /** Places point k of a zone's polygon: the grid point (i, j) in image pixels (y down). */
    private static void corner(final Mapping m, final double i, final double j, final double[] xy,
        final double[] box, final double scale, final int h, final int[] px, final int[] py, final int k) {
        m.at(i, j, xy);
        px[k] = LEFT + (int) Math.round((xy[0] - box[0]) * scale);
        py[k] = TOP + h - (int) Math.round((xy[1] - box[2]) * scale);
    }

    /** The frame of the plot, ticks at round values of each axis with their labels, and the axes' names. */
    private static void axes(final Graphics2D g, final double[] box, final double scale, final int w, final int h,
        final String xLabel, final String yLabel) {
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1));
        g.drawRect(LEFT, TOP, w, h);
        final FontMetrics fm = g.getFontMetrics();
        for (int axis = 0; axis < 2; axis++) {
            final double lo = box[2 * axis];
            final double hi = box[2 * axis + 1];
            final double step = Reports.roundStep((hi - lo) / 5);
            final int digits = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
            for (double t = Math.ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step) {
                final String label = String.format(Locale.ROOT, "%." + digits + "f", Math.abs(t) < 1e-12 * step
                    ? 0 : t);
                final int at = (int) Math.round((t - lo) * scale);
                if (axis == 0) {
                    g.drawLine(LEFT + at, TOP + h, LEFT + at, TOP + h + 5);
                    g.drawString(label, LEFT + at - fm.stringWidth(label) / 2, TOP + h + 6 + fm.getAscent());
                } else {
                    g.drawLine(LEFT - 5, TOP + h - at, LEFT, TOP + h - at);
                    g.drawString(label, LEFT - 8 - fm.stringWidth(label), TOP + h - at + fm.getAscent() / 2);
                }
            }
        }
        g.drawString(xLabel, LEFT + (w - fm.stringWidth(xLabel)) / 2, TOP + h + 12 + 2 * fm.getAscent());
        final AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        // Rotated a quarter turn: x runs up the image, y to the right.
        g.drawString(yLabel, -(TOP + (h + fm.stringWidth(yLabel)) / 2), LEFT - 46);
        g.setTransform(saved);
    }

    private static Color colour(final double f) {
        final double x = Math.max(0, Math.min(1, f)) * (MAP.length - 1);
        final int k = Math.min(MAP.length - 2, (int) x);
        final double t = x - k;
        return new Color((int) Math.round(MAP[k][0] + t * (MAP[k + 1][0] - MAP[k][0])),
            (int) Math.round(MAP[k][1] + t * (MAP[k + 1][1] - MAP[k][1])),
            (int) Math.round(MAP[k][2] + t * (MAP[k + 1][2] - MAP[k][2])));
    }
}
