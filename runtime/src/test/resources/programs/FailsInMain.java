import org.jhpvm.runtime.Jhpvm;

/** PE 1 throws in main before joining; the others wait in Jhpvm.shmem and must be released. */
public class FailsInMain {
    public static void main(String[] args) {
        if (Jhpvm.pe() == 1) {
            throw new IllegalStateException("PE 1 cannot start"); // line 7
        }
        Jhpvm.shmem(args, sh -> sh.barrierAll());
    }
}
