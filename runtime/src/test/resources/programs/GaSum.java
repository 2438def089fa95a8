import java.nio.file.Files;
import java.nio.file.Path;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.runtime.Jhpvm;

/** A Global Arrays body: every PE fills its block, PE 0 checks the whole array's sum. */
public class GaSum {
    public static void main(String[] args) throws Exception {
        Jhpvm.ga(args, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {100}, "a");
            a.fill(1.0);
            ga.sync();
            if (ga.nodeid() == 0) {
                final double[] all = new double[100];
                a.get(new int[] {0}, new int[] {99}, all, null);
                double sum = 0;
                for (final double v : all) {
                    sum += v;
                }
                Files.writeString(Path.of(args[0]).resolve("sum"), Double.toString(sum));
            }
            ga.sync();
        });
    }
}
