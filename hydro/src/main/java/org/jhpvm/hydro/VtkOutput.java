package org.jhpvm.hydro;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;


/**
 * A run's snapshots as VTK XML files that ParaView and VisIt open as an animation: each snapshot one image-data file
 * {@code DIR/NAME_NNNN.vti} of the whole uniform Cartesian grid, or a structured-grid file {@code DIR/NAME_NNNN.vts}
 * with the real positions of the zone corners for a ratioed or curvilinear grid, its radius along x (PE 0
 * writes the fields the run gathered to it), and one
 * collection {@code DIR/NAME.pvd} listing every snapshot written so far with its time, rewritten after each, so a run
 * stopped midway leaves a series that opens. Every file is written to a temporary file and moved into place, so a
 * reader never sees half a file.
 * <p>
 * The cell data: {@code density}, {@code velocity} (three components, zone-centred: the mean of the zone's two faces,
 * 0 for the dimensions the grid does not have; on a curvilinear grid of 2-D or 3-D turned into x, y and z at the
 * zone's centre angles, as its corners are: {@link CurvedSpace}), {@code pressure} ({@code (gamma - 1) e}) and
 * {@code specific_internal_energy} ({@code e / rho}), the definitions of the CSV; values in ASCII with the digits
 * that read back to the same double. The grid's first dimension is VTK's x (the fastest in the file), its second y,
 * its third z. The time is also in each file's field data ({@code TIME}), as VisIt reads it.
 * <p>
 * Thread-safety: one writer per run, used from PE 0's thread.
 */
public final class VtkOutput {
    private final Path dir;
    private final String name;
    private final List<String> files = new ArrayList<>();
    private final List<Double> times = new ArrayList<>();

    /**
     * A writer of {@code dir/name_NNNN.vti} and {@code dir/name.pvd}.
     *
     * @param dir  the directory (created if missing)
     * @param name the file names' stem (the problem's name)
     */
    public VtkOutput(final Path dir, final String name) {
        this.dir = dir;
        this.name = name;
    }

    /**
     * Writes one snapshot and the collection listing it.
     *
     * @param s a snapshot whose fields were gathered
     * @return the image-data ({@code .vti}) or structured-grid ({@code .vts}) file written
     * @throws UncheckedIOException if a file cannot be written
     */
    public Path write(final HydroRun.Snapshot s) {
        try {
            Files.createDirectories(dir);
            final String file = String.format(Locale.ROOT, "%s_%04d.%s", name, files.size(),
                s.cfg().uniform() ? "vti" : "vts");
            final Path vti = dir.resolve(file);
            atomically(vti, w -> image(w, s));
            files.add(file);
            times.add(s.time());
            atomically(dir.resolve(name + ".pvd"), this::collection);
            return vti;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The files written so far, in order.
     *
     * @return their names (relative to the directory)
     */
    public List<String> files() {
        return List.copyOf(files);
    }

    private interface Body {
        void write(XMLStreamWriter w) throws XMLStreamException;
    }

    private static void atomically(final Path target, final Body body) throws IOException {
        AtomicFiles.write(target, stream -> {
            final Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
            try {
                final XMLStreamWriter w = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
                w.writeStartDocument("UTF-8", "1.0");
                w.writeCharacters("\n");
                body.write(w);
                w.writeEndDocument();
                w.close();
            } catch (final XMLStreamException e) {
                throw new IOException("writing " + target + ": " + e.getMessage(), e);
            }
            out.flush();
        });
    }

    private void collection(final XMLStreamWriter w) throws XMLStreamException {
        w.writeStartElement("VTKFile");
        w.writeAttribute("type", "Collection");
        w.writeAttribute("version", "0.1");
        w.writeCharacters("\n  ");
        w.writeStartElement("Collection");
        for (int k = 0; k < files.size(); k++) {
            w.writeCharacters("\n    ");
            w.writeEmptyElement("DataSet");
            w.writeAttribute("timestep", Double.toString(times.get(k)));
            w.writeAttribute("group", "");
            w.writeAttribute("part", "0");
            w.writeAttribute("file", files.get(k));
        }
        w.writeCharacters("\n  ");
        w.writeEndElement();
        w.writeCharacters("\n");
        w.writeEndElement();
        w.writeCharacters("\n");
    }

    private static void image(final XMLStreamWriter w, final HydroRun.Snapshot s) throws XMLStreamException {
        final HydroConfig cfg = s.cfg();
        final int dims = cfg.dims();
        final int[] n = {1, 1, 1};
        final double[] origin = new double[3];
        final double[] spacing = {1, 1, 1};
        for (int d = 0; d < dims; d++) {
            n[d] = cfg.zones()[d];
            origin[d] = cfg.lo()[d];
            spacing[d] = cfg.dx(d);
        }
        final String extent = "0 " + (dims > 0 ? n[0] : 0) + " 0 " + (dims > 1 ? n[1] : 0) + " 0 "
            + (dims > 2 ? n[2] : 0);
        final boolean image = cfg.uniform();
        final String type = image ? "ImageData" : "StructuredGrid";
        w.writeStartElement("VTKFile");
        w.writeAttribute("type", type);
        w.writeAttribute("version", "1.0");
        w.writeAttribute("byte_order", "LittleEndian");
        w.writeCharacters("\n  ");
        w.writeStartElement(type);
        w.writeAttribute("WholeExtent", extent);
        if (image) {
            w.writeAttribute("Origin", origin[0] + " " + origin[1] + " " + origin[2]);
            w.writeAttribute("Spacing", spacing[0] + " " + spacing[1] + " " + spacing[2]);
        }
        w.writeCharacters("\n    ");
        w.writeStartElement("FieldData");
        array(w, "TIME", 1, new double[] {s.time()}, "\n      ");
        w.writeCharacters("\n    ");
        w.writeEndElement();
        w.writeCharacters("\n    ");
        w.writeStartElement("Piece");
        w.writeAttribute("Extent", extent);
        w.writeCharacters("\n      ");
        w.writeStartElement("CellData");
        w.writeAttribute("Scalars", "density");
        w.writeAttribute("Vectors", "velocity");
        final int cells = n[0] * n[1] * n[2];
        final double[] rho = new double[cells];
        final double[] vel = new double[3 * cells];
        final double[] p = new double[cells];
        final double[] eps = new double[cells];
        final double g1 = cfg.gamma() - 1;
        final boolean curved = !image && dims > 1 && cfg.geometry() != Geometry.CARTESIAN;
        final double[] u = new double[dims];
        final double[] v = new double[3];
        int c = 0;
        for (int k = 0; k < n[2]; k++) {
            for (int j = 0; j < n[1]; j++) {
                for (int i = 0; i < n[0]; i++, c++) {
                    final int zone = (i * n[1] + j) * n[2] + k; // row-major over the solver's dimensions
                    rho[c] = s.at(ZeusSolver.D, zone);
                    for (int d = 0; d < dims; d++) {
                        v[d] = s.centredVelocity(d, zone);
                        vel[3 * c + d] = v[d];
                    }
                    if (curved) {
                        // Along the grid's coordinates at the zone's centre angles, turned into x, y and z.
                        s.centre(zone, u);
                        CurvedSpace.vector(cfg.geometry(), dims, u, v, vel, 3 * c);
                    }
                    final double e = s.at(ZeusSolver.E, zone);
                    p[c] = g1 * e;
                    eps[c] = e / rho[c];
                }
            }
        }
        array(w, "density", 1, rho, "\n        ");
        array(w, "velocity", 3, vel, "\n        ");
        array(w, "pressure", 1, p, "\n        ");
        array(w, "specific_internal_energy", 1, eps, "\n        ");
        w.writeCharacters("\n      ");
        w.writeEndElement();
        if (!image) {
            // The real positions of the zone corners (CurvedSpace).
            final int ny = dims > 1 ? n[1] + 1 : 1;
            final int nz = dims > 2 ? n[2] + 1 : 1;
            final double[] points = new double[3 * (n[0] + 1) * ny * nz];
            for (int k = 0, c0 = 0; k < nz; k++) {
                for (int j = 0; j < ny; j++) {
                    for (int i = 0; i <= n[0]; i++, c0++) {
                        u[0] = cfg.face(i);
                        if (dims > 1) {
                            u[1] = j == n[1] ? cfg.hi()[1] : cfg.lo()[1] + j * cfg.dx(1);
                        }
                        if (dims > 2) {
                            u[2] = k == n[2] ? cfg.hi()[2] : cfg.lo()[2] + k * cfg.dx(2);
                        }
                        CurvedSpace.point(cfg.geometry(), dims, u, points, 3 * c0);
                    }
                }
            }
            w.writeCharacters("\n      ");
            w.writeStartElement("Points");
            array(w, "Points", 3, points, "\n        ");
            w.writeCharacters("\n      ");
            w.writeEndElement();
        }
        w.writeCharacters("\n    ");
        w.writeEndElement();
        w.writeCharacters("\n  ");
        w.writeEndElement();
        w.writeCharacters("\n");
        w.writeEndElement();
        w.writeCharacters("\n");
    }

    private static void array(final XMLStreamWriter w, final String arrayName, final int components,
        final double[] values, final String indent) throws XMLStreamException {
        w.writeCharacters(indent);
        w.writeStartElement("DataArray");
        w.writeAttribute("type", "Float64");
        w.writeAttribute("Name", arrayName);
        if (components > 1) {
            w.writeAttribute("NumberOfComponents", Integer.toString(components));
        }
        if ("TIME".equals(arrayName)) {
            w.writeAttribute("NumberOfTuples", "1");
        }
        w.writeAttribute("format", "ascii");
        final StringBuilder b = new StringBuilder(values.length * 12);
        for (int i = 0; i < values.length; i++) {
            b.append(i % (8 * components) == 0 ? indent + "  " : " ").append(values[i]);
        }
        b.append(indent);
        w.writeCharacters(b.toString());
        w.writeEndElement();
    }
}
