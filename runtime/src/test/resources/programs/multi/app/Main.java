package app;

import java.nio.file.Files;
import java.nio.file.Path;

import util.Helper;

/** A program of several source files: Helper is needed to compile, Reflective only at run time. */
public class Main {
    public static void main(String[] args) throws Exception {
        final Object r = Class.forName("util.Reflective").getDeclaredConstructor().newInstance();
        Files.writeString(Path.of(args[0]).resolve("multi-" + org.jhpvm.runtime.Jhpvm.pe()),
            Helper.greet() + " " + r);
    }
}
