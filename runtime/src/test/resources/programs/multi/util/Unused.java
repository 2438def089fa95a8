package util;

/** Never needed by the program, and does not compile: the source launcher never compiles it. */
public class Unused {
    int x = ;
}
