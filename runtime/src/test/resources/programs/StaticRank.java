import java.nio.file.Files;
import java.nio.file.Path;

import org.jhpvm.runtime.Jhpvm;
import org.jhpvm.shmem.SymmetricInts;

/** Keeps its PE in a static field: correct only if every PE has its own copy of the class. */
public class StaticRank {
    static int rank = -1;

    public static void main(String[] args) throws Exception {
        rank = Jhpvm.pe();
        final Path out = Path.of(args[0]);
        Jhpvm.shmem(args, sh -> {
            final SymmetricInts got = sh.mallocInts(1);
            sh.barrierAll(); // every PE has set its static by now
            got.p((sh.myPe() + 1) % sh.nPes(), 0, rank);
            sh.barrierAll();
            final int left = (sh.myPe() + sh.nPes() - 1) % sh.nPes();
            if (rank != sh.myPe() || got.local()[0] != left) {
                throw new IllegalStateException("PE " + sh.myPe() + " sees rank=" + rank + ", left sent "
                    + got.local()[0]);
            }
        });
        Files.writeString(out.resolve("pe-" + rank), rank + " " + Jhpvm.npes() + " " + Jhpvm.options() + " "
            + String.join(",", Jhpvm.args()) + " " + Thread.currentThread().getContextClassLoader().getName());
    }
}
