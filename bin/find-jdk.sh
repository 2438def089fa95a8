# Sourced by bin/jhpvm and .ci/run: sets JAVA_HOME to a JDK 25 or newer, or fails with a clear message.
# Order: $JAVA_HOME if it is 25+, else the newest JDK 25+ under /usr/lib/jvm.

jhpvm_java_major() {
    # Prints the feature version (e.g. 25) of the java binary $1, or nothing. The JDK's release file says it
    # without starting a JVM (0.2 s each, three times on a machine with three JDKs); java itself is asked only
    # when that file is missing or says something else.
    local release version
    release="$(dirname "$(dirname "$1")")/release"
    if [ -r "$release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9][0-9]*\).*/\2/p' "$release" | head -n 1)
        if [ -n "$version" ]; then
            echo "$version"
            return 0
        fi
    fi
    "$1" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

jhpvm_find_jdk() {
    local required=25 candidate major best="" best_major=0
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        major=$(jhpvm_java_major "$JAVA_HOME/bin/java")
        if [ -n "$major" ] && [ "$major" -ge "$required" ]; then
            return 0
        fi
    fi
    for candidate in /usr/lib/jvm/*; do
        [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
        major=$(jhpvm_java_major "$candidate/bin/java")
        if [ -n "$major" ] && [ "$major" -ge "$required" ] && [ "$major" -gt "$best_major" ]; then
            best="$candidate"
            best_major="$major"
        fi
    done
    if [ -z "$best" ]; then
        echo "jhpvm: no JDK $required or newer found (JAVA_HOME=${JAVA_HOME:-unset}, none under /usr/lib/jvm)." >&2
        echo "jhpvm: install a JDK $required and set JAVA_HOME to it." >&2
        return 1
    fi
    export JAVA_HOME="$best"
}
