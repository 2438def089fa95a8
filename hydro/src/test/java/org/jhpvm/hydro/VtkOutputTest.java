package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * VTK snapshots: read back with the JDK's DOM parser (not the writer's), every value of every snapshot equals the
 * solver's field at the zone whose centre the file's grid places there; the series lists every snapshot with its
 * time; taking snapshots changes no bit of the run.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class VtkOutputTest {
    private static final ExactRiemann.State SOD_LEFT = new ExactRiemann.State(1, 0, 1);
    private static final ExactRiemann.State SOD_RIGHT = new ExactRiemann.State(0.125, 0, 0.1);

    @Test
    void shouldWriteEverySnapshotAsTheSolversFieldsAndChangeNothing(@TempDir final Path dir) throws Exception {
        // A 2-D Sod along x: the fields vary along the first dimension only, so a transposed file would show.
        final Problem p = Problem.of("sod", new Problem.Params(2, 2, 24, 0.1, null), SOD_LEFT, SOD_RIGHT, 0.5);
        final List<HydroRun.Snapshot> taken = new ArrayList<>();
        final VtkOutput vtk = new VtkOutput(dir, "sod");
        final HydroRun.Snapshot end = HydroRun.run(2, Map.of(), p.spec(), null,
            new HydroRun.Output(new double[] {0.03, 0.05, 0.1}, s -> {
                taken.add(s);
                vtk.write(s);
            }));
        final HydroRun.Snapshot plain = HydroRun.run(2, Map.of(), p.spec(), null);
        assertArrayEquals(plain.fields(), end.fields(), "snapshots change no bit of the run");
        assertEquals(4, taken.size(), "the initial state and three more");
        assertEquals(0, taken.get(0).time());
        assertArrayEquals(end.fields(), taken.get(3).fields(), "the last snapshot is the end state");
        for (int k = 1; k < 4; k++) {
            assertTrue(taken.get(k).time() >= new double[] {0, 0.03, 0.05, 0.1}[k], "taken once its time is reached");
        }
        final Document pvd = parse(dir.resolve("sod.pvd"));
        final NodeList sets = pvd.getElementsByTagName("DataSet");
        assertEquals(4, sets.getLength());
        for (int k = 0; k < 4; k++) {
            final Element set = (Element) sets.item(k);
            assertEquals(taken.get(k).time(), Double.parseDouble(set.getAttribute("timestep")));
            compare(taken.get(k), parse(dir.resolve(set.getAttribute("file"))));
        }
        try (var left = Files.list(dir)) {
            assertTrue(left.noneMatch(f -> f.toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void aCurvilinearGridShouldBeAStructuredGridWithTheRealRadii(@TempDir final Path dir) throws Exception {
        final Problem p = Problem.of("sedov", new Problem.Params(2, 1, 40, 0.05, null, Geometry.SPHERICAL, 1.02),
            null, null, 0);
        final VtkOutput vtk = new VtkOutput(dir, "sedov");
        final List<HydroRun.Snapshot> taken = new ArrayList<>();
        HydroRun.run(2, Map.of(), p.spec(), null, new HydroRun.Output(new double[] {0.05}, s -> {
            taken.add(s);
            vtk.write(s);
        }));
        assertEquals(List.of("sedov_0000.vts", "sedov_0001.vts"), vtk.files());
        final HydroRun.Snapshot s = taken.get(1);
        final Document vts = parse(dir.resolve("sedov_0001.vts"));
        final Element grid = (Element) vts.getElementsByTagName("StructuredGrid").item(0);
        assertEquals("0 40 0 0 0 0", grid.getAttribute("WholeExtent"));
        assertEquals("StructuredGrid", vts.getDocumentElement().getAttribute("type"));
        final double[] points = numbers(array(vts, "Points").getTextContent());
        final double[] rho = numbers(array(vts, "density").getTextContent());
        final double[] vel = numbers(array(vts, "velocity").getTextContent());
        assertEquals(3 * 41, points.length);
        final HydroConfig cfg = s.cfg();
        for (int i = 0; i <= 40; i++) {
            assertEquals(cfg.face(i), points[3 * i], "radius of corner " + i);
            assertEquals(0, points[3 * i + 1]);
            assertEquals(0, points[3 * i + 2]);
        }
        assertTrue(points[3 * 40] - points[3 * 39] > 1.5 * (points[3] - points[0]), "ratioed: the zones widen");
        for (int i = 0; i < 40; i++) {
            assertEquals(s.at(ZeusSolver.D, i), rho[i], "density, zone " + i);
            assertEquals(s.centredVelocity(0, i), vel[3 * i], "radial velocity, zone " + i);
        }
    }

    @Test
    void aCylindricalRzGridShouldPlaceItsCornersAtTheRealRadiiAndHeights(@TempDir final Path dir) throws Exception {
        final Problem p = Problem.of("sedov", new Problem.Params(2, 2, 12, 0.02, null, Geometry.CYLINDRICAL, 1.05),
            null, null, 0);
        final HydroRun.Snapshot s = writeAt(dir, "sedov", p.spec(), 0.02);
        final Document vts = parse(dir.resolve("sedov_0001.vts"));
        assertEquals("0 12 0 12 0 0", ((Element) vts.getElementsByTagName("StructuredGrid").item(0))
            .getAttribute("WholeExtent"));
        final double[] points = numbers(array(vts, "Points").getTextContent());
        final double[] rho = numbers(array(vts, "density").getTextContent());
        assertEquals(3 * 13 * 13, points.length);
        final HydroConfig cfg = s.cfg();
        for (int j = 0; j <= 12; j++) {
            for (int i = 0; i <= 12; i++) {
                final int c = 3 * (j * 13 + i);
                assertEquals(cfg.face(i), points[c], "r of corner " + i + "," + j);
                assertEquals(j / 12.0, points[c + 1], 1e-15, "z of corner " + i + "," + j);
            }
        }
        for (int j = 0; j < 12; j++) {
            for (int i = 0; i < 12; i++) {
                assertEquals(s.at(ZeusSolver.D, i * 12 + j), rho[j * 12 + i], "density of zone r " + i + ", z " + j);
            }
        }
    }

    @Test
    void aSphericalRThetaGridShouldBeItsMeridionalPlane(@TempDir final Path dir) throws Exception {
        // A uniform flow along the axis: (cos theta, -sin theta) in (r, theta) is (0, 1) in the plane.
        final HydroRun.Spec spec = PolarGridTest.uniformFlow(12, 0.02);
        final HydroRun.Snapshot s = writeAt(dir, "flow", spec, 0.02);
        final Document vts = parse(dir.resolve("flow_0001.vts"));
        final double[] points = numbers(array(vts, "Points").getTextContent());
        final double[] rho = numbers(array(vts, "density").getTextContent());
        final double[] vel = numbers(array(vts, "velocity").getTextContent());
        final HydroConfig cfg = s.cfg();
        for (int j = 0; j <= 12; j++) {
            final double theta = j == 12 ? cfg.hi()[1] : cfg.lo()[1] + j * cfg.dx(1);
            for (int i = 0; i <= 12; i++) {
                final int c = 3 * (j * 13 + i);
                assertEquals(cfg.face(i), Math.hypot(points[c], points[c + 1]), 1e-15, "r of corner " + i + "," + j);
                assertEquals(theta, Math.atan2(points[c], points[c + 1]), 1e-15, "theta of corner " + i + "," + j);
                assertEquals(0, points[c + 2]);
            }
        }
        for (int j = 0; j < 12; j++) {
            final double t = cfg.centre(1, j);
            for (int i = 0; i < 12; i++) {
                final int zone = i * 12 + j;
                final int c = j * 12 + i;
                assertEquals(s.at(ZeusSolver.D, zone), rho[c], "density of zone r " + i + ", theta " + j);
                final double vr = s.centredVelocity(0, zone);
                final double vt = s.centredVelocity(1, zone);
                assertEquals(vr * Math.sin(t) + vt * Math.cos(t), vel[3 * c], 1e-15, "x velocity " + i + "," + j);
                assertEquals(vr * Math.cos(t) - vt * Math.sin(t), vel[3 * c + 1], 1e-15, "y velocity " + i + "," + j);
                assertEquals(0, vel[3 * c], 0.02, "the flow is along the axis");
                assertEquals(1, vel[3 * c + 1], 0.02, "the flow is along the axis");
            }
        }
    }

    @Test
    void aSphericalThreeDimensionalGridShouldBeItsOctantOfSpace(@TempDir final Path dir) throws Exception {
        // A uniform flow along x: (sin theta cos phi, cos theta cos phi, -sin phi) in (r, theta, phi) is (1, 0, 0).
        final HydroRun.Spec spec = CurvilinearThreeDTest.uniformFlow(Geometry.SPHERICAL, 6, 0.02);
        final HydroRun.Snapshot s = writeAt(dir, "flow", spec, 0.02);
        final Document vts = parse(dir.resolve("flow_0001.vts"));
        assertEquals("0 6 0 6 0 6", ((Element) vts.getElementsByTagName("StructuredGrid").item(0))
            .getAttribute("WholeExtent"));
        final double[] points = numbers(array(vts, "Points").getTextContent());
        final double[] vel = numbers(array(vts, "velocity").getTextContent());
        final HydroConfig cfg = s.cfg();
        assertEquals(3 * 7 * 7 * 7, points.length);
        for (int k = 0; k <= 6; k++) {
            final double phi = k == 6 ? cfg.hi()[2] : cfg.lo()[2] + k * cfg.dx(2);
            for (int j = 0; j <= 6; j++) {
                final double theta = j == 6 ? cfg.hi()[1] : cfg.lo()[1] + j * cfg.dx(1);
                for (int i = 0; i <= 6; i++) {
                    final int c = 3 * ((k * 7 + j) * 7 + i);
                    final double x = points[c];
                    final double y = points[c + 1];
                    final double z = points[c + 2];
                    assertEquals(cfg.face(i), Math.sqrt(x * x + y * y + z * z), 1e-15, "r of corner");
                    assertEquals(theta, Math.acos(z / cfg.face(i)), 1e-12, "theta of corner");
                    assertEquals(phi, Math.atan2(y, x), 1e-15, "phi of corner");
                }
            }
        }
        for (int k = 0; k < 6; k++) {
            final double p = cfg.centre(2, k);
            for (int j = 0; j < 6; j++) {
                final double t = cfg.centre(1, j);
                for (int i = 0; i < 6; i++) {
                    final int zone = (i * 6 + j) * 6 + k;
                    final int c = 3 * ((k * 6 + j) * 6 + i);
                    final double vr = s.centredVelocity(0, zone);
                    final double vt = s.centredVelocity(1, zone);
                    final double vp = s.centredVelocity(2, zone);
                    final double[] xyz = {
                        vr * Math.sin(t) * Math.cos(p) + vt * Math.cos(t) * Math.cos(p) - vp * Math.sin(p),
                        vr * Math.sin(t) * Math.sin(p) + vt * Math.cos(t) * Math.sin(p) + vp * Math.cos(p),
                        vr * Math.cos(t) - vt * Math.sin(t)};
                    for (int d = 0; d < 3; d++) {
                        assertEquals(xyz[d], vel[c + d], 1e-15, "velocity component " + d + " of zone " + zone);
                        // Coarse (6^3) and next to the inflow faces: the flow is (1, 0, 0) to a few per cent.
                        assertEquals(d == 0 ? 1 : 0, vel[c + d], 0.1, "the flow is along x");
                    }
                }
            }
        }
    }

    /** Runs on 2 PEs writing snapshots at 0 and {@code t} as {@code dir/NAME_000K}; the snapshot at t. */
    private static HydroRun.Snapshot writeAt(final Path dir, final String name, final HydroRun.Spec spec,
        final double t) {
        final VtkOutput vtk = new VtkOutput(dir, name);
        final List<HydroRun.Snapshot> taken = new ArrayList<>();
        HydroRun.run(2, Map.of(), spec, null, new HydroRun.Output(new double[] {t}, s -> {
            taken.add(s);
            vtk.write(s);
        }));
        return taken.get(1);
    }

    @Test
    void shouldRefuseABadSchedule() {
        assertThrows(IllegalArgumentException.class, () -> new HydroRun.Output(new double[] {0.1, 0.1}, s -> { }));
        assertThrows(IllegalArgumentException.class, () -> new HydroRun.Output(new double[] {0}, s -> { }));
        final Problem p = Problem.of("sod", new Problem.Params(1, 1, 16, 0.1, null), SOD_LEFT, SOD_RIGHT, 0.5);
        final HydroRun.Spec cyclesRun = new HydroRun.Spec(p.spec().cfg(), p.spec().initial(), null, 0, 0, 3, true);
        assertThrows(IllegalArgumentException.class, () -> HydroRun.run(1, Map.of(), cyclesRun, null,
            new HydroRun.Output(new double[] {0.1}, s -> { })), "snapshots go with runs to a time");
    }

    private static Document parse(final Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    /** Every cell of the file against the snapshot's zone with that centre. */
    private static void compare(final HydroRun.Snapshot s, final Document vti) {
        final Element image = (Element) vti.getElementsByTagName("ImageData").item(0);
        final int[] ext = Arrays.stream(image.getAttribute("WholeExtent").trim().split("\\s+"))
            .mapToInt(Integer::parseInt).toArray();
        final double[] origin = numbers(image.getAttribute("Origin"));
        final double[] spacing = numbers(image.getAttribute("Spacing"));
        final int nx = ext[1];
        final int ny = Math.max(1, ext[3]);
        final HydroConfig cfg = s.cfg();
        assertArrayEquals(new int[] {0, cfg.zones()[0], 0, cfg.zones()[1], 0, 0}, ext);
        final double[] time = numbers(array(vti, "TIME").getTextContent());
        assertEquals(s.time(), time[0]);
        final double[] rho = numbers(array(vti, "density").getTextContent());
        final double[] vel = numbers(array(vti, "velocity").getTextContent());
        final double[] p = numbers(array(vti, "pressure").getTextContent());
        final double[] eps = numbers(array(vti, "specific_internal_energy").getTextContent());
        assertEquals(s.zones(), rho.length);
        assertEquals(3 * s.zones(), vel.length);
        final double[] x = new double[2];
        for (int z = 0; z < s.zones(); z++) {
            s.centre(z, x);
            final int i = (int) Math.floor((x[0] - origin[0]) / spacing[0]);
            final int j = (int) Math.floor((x[1] - origin[1]) / spacing[1]);
            final int c = i + nx * j;
            assertTrue(c >= 0 && c < nx * ny);
            final double d = s.at(ZeusSolver.D, z);
            final double e = s.at(ZeusSolver.E, z);
            assertEquals(d, rho[c], "density, zone " + z);
            assertEquals(s.centredVelocity(0, z), vel[3 * c], "u, zone " + z);
            assertEquals(s.centredVelocity(1, z), vel[3 * c + 1], "v, zone " + z);
            assertEquals(0, vel[3 * c + 2], "w of a 2-D grid");
            assertEquals((cfg.gamma() - 1) * e, p[c], "pressure, zone " + z);
            assertEquals(e / d, eps[c], "specific internal energy, zone " + z);
        }
    }

    private static Element array(final Document doc, final String name) {
        final NodeList arrays = doc.getElementsByTagName("DataArray");
        for (int k = 0; k < arrays.getLength(); k++) {
            final Element a = (Element) arrays.item(k);
            if (name.equals(a.getAttribute("Name"))) {
                return a;
            }
        }
        throw new AssertionError("no DataArray " + name);
    }

    private static double[] numbers(final String text) {
        final String t = text.trim();
        return t.isEmpty() ? new double[0] : Arrays.stream(t.split("\\s+")).mapToDouble(Double::parseDouble).toArray();
    }
}
