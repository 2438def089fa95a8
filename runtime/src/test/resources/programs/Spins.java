/** Never ends by itself: for the run's timeout. */
public class Spins {
    public static void main(String[] args) throws Exception {
        while (!Thread.currentThread().isInterrupted()) {
            Thread.onSpinWait();
        }
        throw new InterruptedException("stopped");
    }
}
