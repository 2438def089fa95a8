import org.jhpvm.runtime.Jhpvm;

/** PE args[0] throws inside the body; the others wait at a barrier. */
public class Fails {
    public static void main(String[] args) {
        final int victim = Integer.parseInt(args[0]);
        Jhpvm.shmem(args, sh -> {
            if (sh.myPe() == victim) {
                throw new IllegalArgumentException("bad value on PE " + sh.myPe()); // line 9
            }
            sh.barrierAll();
        });
    }
}
