import java.nio.file.Files;
import java.nio.file.Path;

import org.jhpvm.runtime.Jhpvm;

/** PE 0 ends the program with globalExit(5); nothing after Jhpvm.shmem may run on any PE. */
public class Exits {
    public static void main(String[] args) throws Exception {
        Jhpvm.shmem(args, sh -> {
            if (sh.myPe() == 0) {
                sh.globalExit(5);
            }
            sh.barrierAll();
        });
        Files.writeString(Path.of(args[0]).resolve("after-" + Jhpvm.pe()), "ran after globalExit");
    }
}
