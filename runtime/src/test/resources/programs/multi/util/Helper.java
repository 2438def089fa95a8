package util;

public class Helper {
    public static String greet() {
        return "helper";
    }
}
