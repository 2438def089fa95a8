public class NoMain {
    static void notMain(String[] args) {
    }
}
