# Sourced by ./mvnw and .ci/run (POSIX sh). rdma-reactive needs JDK 25 or newer (final FFM).
# When JAVA_HOME is unset or names an older JDK, look for a JDK 25+ in the usual install places and export it,
# so that a machine whose default java is older needs no manual setting. When none is found, leave JAVA_HOME
# alone: the Maven enforcer then stops the build with a message that says what to install.

rr_jdk_feature() {
  # prints the feature release (e.g. 25) of the JDK at $1, or nothing
  if [ -f "$1/release" ] && [ -x "$1/bin/javac" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1
  fi
}

rr_find_jdk() {
  rr_best=""
  rr_best_feature=0
  for rr_candidate in "${JAVA_HOME:-}" /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* \
      "${HOME:-/nonexistent}"/.sdkman/candidates/java/* "${HOME:-/nonexistent}"/.jdks/* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$rr_candidate" ] && [ -d "$rr_candidate" ] || continue
    rr_feature=$(rr_jdk_feature "$rr_candidate")
    [ -n "$rr_feature" ] || continue
    if [ "$rr_feature" -ge 25 ] && [ "$rr_feature" -gt "$rr_best_feature" ]; then
      rr_best="$rr_candidate"
      rr_best_feature="$rr_feature"
    fi
  done
  printf '%s' "$rr_best"
}

rr_current_feature=""
[ -n "${JAVA_HOME:-}" ] && rr_current_feature=$(rr_jdk_feature "$JAVA_HOME")
if [ -z "$rr_current_feature" ] || [ "$rr_current_feature" -lt 25 ]; then
  rr_found=$(rr_find_jdk)
  if [ -n "$rr_found" ]; then
    JAVA_HOME="$rr_found"
    export JAVA_HOME
  fi
fi
# Maven 3.9 itself (through Guice) calls sun.misc.Unsafe, which JDK 24+ warns about on every run; that
# warning is Maven's, not ours, so silence it for Maven's own JVM only.
if [ -n "${JAVA_HOME:-}" ]; then
  rr_current_feature=$(rr_jdk_feature "$JAVA_HOME")
  if [ -n "$rr_current_feature" ] && [ "$rr_current_feature" -ge 24 ]; then
    case " ${MAVEN_OPTS:-} " in
      *sun-misc-unsafe-memory-access*) ;;
      *) MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"; export MAVEN_OPTS ;;
    esac
  fi
fi
unset rr_current_feature rr_found rr_candidate rr_feature rr_best rr_best_feature
