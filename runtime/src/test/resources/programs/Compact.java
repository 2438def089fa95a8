void main(String[] args) throws Exception {
    java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]).resolve("compact-" + org.jhpvm.runtime.Jhpvm.pe()),
        "compact");
}
