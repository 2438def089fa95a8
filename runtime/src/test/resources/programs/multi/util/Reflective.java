package util;

public class Reflective {
    @Override
    public String toString() {
        return "reflective";
    }
}
