import java.nio.file.Files;
import java.nio.file.Path;

/** An instance main method (JDK 25): the launcher makes an object first. */
class Instance {
    private final String made = "made";

    void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[0]).resolve("instance-" + org.jhpvm.runtime.Jhpvm.pe()), made);
    }
}
