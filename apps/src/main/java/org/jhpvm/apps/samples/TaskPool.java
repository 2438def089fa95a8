package org.jhpvm.apps.samples;

import java.time.Duration;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;

/**
 * Dynamic load balancing with GA's shared task counter: the rows of a Mandelbrot image are the tasks; every PE takes
 * the next row with {@code readInc} until none is left, computes it and puts it into a global image array. Rows
 * near the set cost far more than rows away from it, so a static split would leave PEs idle; the counter hands out
 * work as PEs become free. The image equals the one a single loop computes, pixel for pixel.
 */
public final class TaskPool {
    private TaskPool() {
    }

    /**
     * What a run found.
     *
     * @param width        pixels per row
     * @param height       rows (tasks)
     * @param pes          PEs
     * @param image        iterations per pixel, row-major
     * @param rowsPerPe    tasks each PE took
     * @param seconds      wall time
     */
    public record Result(int width, int height, int pes, int[] image, int[] rowsPerPe, double seconds) {
    }

    /** Escape iterations of the pixel (x, y): the plain sequential definition, shared by both computations. */
    static int iterations(final int x, final int y, final int width, final int height, final int maxIter) {
        final double cr = -2.2 + 3.2 * x / width;
        final double ci = -1.4 + 2.8 * y / height;
        double zr = 0;
        double zi = 0;
        int k = 0;
        while (k < maxIter && zr * zr + zi * zi <= 4) {
            final double t = zr * zr - zi * zi + cr;
            zi = 2 * zr * zi + ci;
            zr = t;
            k++;
        }
        return k;
    }

    /**
     * The same image by one loop, the reference.
     *
     * @param width   pixels per row
     * @param height  rows
     * @param maxIter iteration limit
     * @return iterations per pixel
     */
    public static int[] sequential(final int width, final int height, final int maxIter) {
        final int[] img = new int[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                img[y * width + x] = iterations(x, y, width, height, maxIter);
            }
        }
        return img;
    }

    /**
     * Computes the image in a job of {@code pes} PEs, rows handed out by the shared counter, and reads it back to
     * PE 0.
     *
     * @param pes     PEs
     * @param width   pixels per row
     * @param height  rows
     * @param maxIter iteration limit
     * @return the image and how the work was shared; null in a process of a launched job that does not host PE 0
     * @throws IllegalArgumentException if the width, height or iteration limit is below 1
     */
    public static Result run(final int pes, final int width, final int height, final int maxIter) {
        if (width < 1 || height < 1 || maxIter < 1) {
            throw new IllegalArgumentException("need --width, --height, --max-iter >= 1");
        }
        final int[] rows = new int[pes];
        final Result[] out = new Result[1];
        ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(10)).build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            final GlobalArray counter = ga.create(GaType.LONG, new int[] {1}, "next row");
            final GlobalArray image = ga.create(GaType.INT, new int[] {height, width}, "image");
            final int[] row = new int[width];
            final int[] zero = {0};
            final int[] ld = {width};
            final long t0 = System.nanoTime();
            int taken = 0;
            for (long y = counter.readInc(zero, 1); y < height; y = counter.readInc(zero, 1)) {
                for (int x = 0; x < width; x++) {
                    row[x] = iterations(x, (int) y, width, height, maxIter);
                }
                image.put(new int[] {(int) y, 0}, new int[] {(int) y, width - 1}, row, ld);
                taken++;
            }
            rows[ga.nodeid()] = taken;
            ga.sync();
            final double seconds = (System.nanoTime() - t0) / 1e9;
            if (ga.nodeid() == 0) {
                final int[] img = new int[width * height];
                image.get(new int[] {0, 0}, new int[] {height - 1, width - 1}, img, ld);
                out[0] = new Result(width, height, pes, img, rows, seconds);
            }
            ga.sync();
        });
        return out[0];
    }
}
