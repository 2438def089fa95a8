public class Broken {
    public static void main(String[] args) {
        int x = "not an int";
    }
}
