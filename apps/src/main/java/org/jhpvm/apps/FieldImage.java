package org.jhpvm.apps;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;

/** A false-colour image of a 2-D field (x across, y up) with a title and a colour bar, for hydro's PNGs. */
public final class FieldImage {
    /** Viridis, sampled at 0, 1/4, 1/2, 3/4, 1. */
    private static final int[][] MAP = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    private static final int MARGIN = 40;
    private static final int BAR = 24;

    private FieldImage() {
    }

    /**
     * Draws {@code v} in the viridis colour map scaled from its minimum to its maximum (a constant field in the lowest
     * colour), each value a square of {@code max(1, 512 / max(nx, ny))} pixels a side, with the title above and a
     * colour bar labelled with the minimum and maximum beside it.
     *
     * @param v     values, {@code v[i * ny + j]} at column i, row j (row 0 at the bottom)
     * @param nx    columns
     * @param ny    rows
     * @param title title line
     * @return the image
     */
    public static BufferedImage of(final double[] v, final int nx, final int ny, final String title) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (final double x : v) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        final int scale = Math.max(1, 512 / Math.max(nx, ny));
        final int w = nx * scale;
        final int h = ny * scale;
        final BufferedImage img = new BufferedImage(w + 3 * MARGIN + BAR + 40, h + 2 * MARGIN,
            BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        final double span = max > min ? max - min : 1;
        for (int i = 0; i < nx; i++) {
            for (int j = 0; j < ny; j++) {
                g.setColor(colour((v[i * ny + j] - min) / span));
                g.fillRect(MARGIN + i * scale, MARGIN + (ny - 1 - j) * scale, scale, scale);
            }
        }
        final int bx = w + 2 * MARGIN;
        for (int y = 0; y < h; y++) {
            g.setColor(colour(1 - (double) y / (h - 1)));
            g.fillRect(bx, MARGIN + y, BAR, 1);
        }
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.drawString(title, MARGIN, MARGIN - 14);
        g.drawString(String.format("%.4g", max), bx, MARGIN - 4);
        g.drawString(String.format("%.4g", min), bx, MARGIN + h + 16);
        g.drawString("x", MARGIN + w / 2, MARGIN + h + 18);
        g.drawString("y", MARGIN - 16, MARGIN + h / 2);
        g.dispose();
        return img;
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
