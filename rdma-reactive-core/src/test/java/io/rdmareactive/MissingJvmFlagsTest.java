package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started without one of the two options every JVM that uses rdma-reactive needs fails at once, naming the
 * missing one and where to put it, instead of waiting forever: without the export, Agrona failed to initialise on a
 * thread of its own and {@code bind().block()} never returned. Each test starts {@link JvmFlagsPeer} in a JVM that
 * really lacks the option (its launcher leaves both out of the options the child inherits, and the test passes back the
 * one it keeps), and checks that it does.
 */
class MissingJvmFlagsTest {

    private static final String NATIVE = "--enable-native-access=ALL-UNNAMED";
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    /** A process that still runs after this hangs: the failure this test is about. */
    private static final Duration EXIT_BOUND = ShmTestSupport.BOUND;
    /** From the call to its error, measured in the child: fail-fast, with room for a loaded machine. */
    private static final long FAIL_FAST_MILLIS = 1_000;

    @TempDir
    Path work;

    @Test
    void withoutTheExportBindFailsAtOnceNamingIt() throws Exception {
        final String output = runWithout(EXPORT, NATIVE, "bind");

        assertThat(output).as("the child's output").contains(
            "IllegalStateException: rdma-reactive cannot start: this JVM was started without " + EXPORT + " (")
            .doesNotContain("without " + NATIVE, "IllegalAccessError");
        assertWhereToPutThem(output);
    }

    @Test
    void withoutTheExportARuntimeFailsToBuildNamingIt() throws Exception {
        final String output = runWithout(EXPORT, NATIVE, "build");

        assertThat(output).as("the child's output").contains(
            "IllegalStateException: rdma-reactive cannot start: this JVM was started without " + EXPORT + " (")
            .doesNotContain("IllegalAccessError");
    }

    @Test
    void withoutNativeAccessConnectFailsAtOnceNamingIt() throws Exception {
        final String output = runWithout(NATIVE, EXPORT, "connect");

        assertThat(output).as("the child's output").contains(
            "IllegalStateException: rdma-reactive cannot start: this JVM was started without " + NATIVE + " (")
            .doesNotContain("without " + EXPORT);
        assertWhereToPutThem(output);
    }

    private static void assertWhereToPutThem(final String output) {
        assertThat(output).as("where the message says to put the options").contains(
            "Start every JVM that uses rdma-reactive with " + NATIVE + " " + EXPORT + ":",
            "java " + NATIVE + " " + EXPORT + " -cp", "<argLine>", "jvmArgs", "applicationDefaultJvmArgs",
            "VM options", "'Add-Exports: java.base/jdk.internal.misc' and 'Enable-Native-Access: ALL-UNNAMED'");
    }

    /**
     * Runs {@link JvmFlagsPeer} in a JVM with this one's options but without {@code absent}, and with {@code kept}.
     *
     * @return its output, once it exited non-zero within {@link #EXIT_BOUND}, failing in under a second, in a JVM
     *     that really lacked {@code absent}
     */
    private String runWithout(final String absent, final String kept, final String mode) throws Exception {
        final boolean exited;
        final int status;
        final String output;
        final String said;
        try (ChildJvm child = ChildJvmLauncher.of(JvmFlagsPeer.class)
            .withoutInheritedOption("--add-exports").withoutInheritedOption("--enable-native-access")
            .jvmOptions(kept, "-Xmx128m", "-XX:TieredStopAtLevel=1").args(mode, work.toString())
            // either would put the options back on the child's command line
            .withoutEnvironment("JDK_JAVA_OPTIONS").withoutEnvironment("JAVA_TOOL_OPTIONS").start()) {
            exited = child.exitsWithin(EXIT_BOUND);
            status = exited ? child.exitValue() : -1;
            output = child.output();
            said = "; the child (" + String.join(" ", child.command()).replace(
                System.getProperty("java.class.path"), "<this class path>") + ") said:\n" + output;
        }

        assertThat(exited).as("the child exited within %d s (it hangs without the check)%s", EXIT_BOUND.toSeconds(),
            said).isTrue();
        final String args = line(output, JvmFlagsPeer.ARGS);
        assertThat(args).as("the child's JVM options%s", said).doesNotContain(absent.substring(0, absent.indexOf('=')))
            .contains(kept);
        assertThat(line(output, JvmFlagsPeer.OPTIONS)).as("what the child's JVM says of the options%s", said)
            .isEqualTo(JvmFlagsPeer.OPTIONS + (absent.equals(EXPORT) ? "export=false native=true"
                : "export=true native=false"));
        assertThat(status).as("the child's exit code%s", said).isNotZero();
        final Matcher failed = Pattern.compile(Pattern.quote(JvmFlagsPeer.FAILED) + "(\\d+) ms: ").matcher(output);
        assertThat(failed.find()).as("the child failed%s", said).isTrue();
        assertThat(Long.parseLong(failed.group(1))).as("milliseconds from the call to its error%s", said)
            .isLessThan(FAIL_FAST_MILLIS);
        System.out.printf("%s without %s: %s%n", mode, absent, line(output, JvmFlagsPeer.FAILED));
        return output;
    }

    private static String line(final String output, final String prefix) {
        return output.lines().filter(line -> line.startsWith(prefix)).findFirst().orElse("(no line " + prefix + ")");
    }
}
