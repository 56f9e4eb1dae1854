package io.rdmareactive.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The check of the JVM's two options in this JVM (the build starts it with both) and the messages for what is
 * missing; {@code MissingJvmFlagsTest} starts JVMs that really lack one.
 */
class JvmFlagsTest {

    private static final String NATIVE = "--enable-native-access=ALL-UNNAMED";
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    @Test
    void thisJvmHasBothOptionsSoTheCheckPasses() {
        assertThat(JvmFlags.problem()).as("the check in a JVM started with %s",
            ManagementFactory.getRuntimeMXBean().getInputArguments()).isEmpty();
        JvmFlags.require();
        JvmFlags.require(); // remembered
    }

    @Test
    void aMissingExportIsNamedAloneWithWhereToPutBoth() {
        final String message = JvmFlags.problem(true, "ALL-UNNAMED", false, "ALL-UNNAMED").orElseThrow();

        assertThat(message).startsWith("rdma-reactive cannot start: this JVM was started without " + EXPORT + " (")
            .doesNotContain("without " + NATIVE)
            .contains("Start every JVM that uses rdma-reactive with " + NATIVE + " " + EXPORT + ":")
            .contains("java " + NATIVE + " " + EXPORT + " -cp", "<argLine>", "jvmArgs", "applicationDefaultJvmArgs",
                "VM options", "'Add-Exports: java.base/jdk.internal.misc'", "'Enable-Native-Access: ALL-UNNAMED'");
    }

    @Test
    void aMissingNativeAccessIsNamedAlone() {
        final String message = JvmFlags.problem(false, "ALL-UNNAMED", true, "ALL-UNNAMED").orElseThrow();

        assertThat(message).startsWith("rdma-reactive cannot start: this JVM was started without " + NATIVE + " (")
            .doesNotContain("without " + EXPORT);
    }

    @Test
    void bothMissingAreNamedTogether() {
        final String message = JvmFlags.problem(false, "ALL-UNNAMED", false, "ALL-UNNAMED").orElseThrow();

        assertThat(message).contains("without " + NATIVE + " (", " and without " + EXPORT + " (");
    }

    @Test
    void onTheModulePathTheOptionsNameTheModulesAndNoManifestCanGrantThem() {
        final String message = JvmFlags.problem(false, "rdma.reactive.core", false, "org.agrona").orElseThrow();

        assertThat(message).contains("without --enable-native-access=rdma.reactive.core (",
            "without --add-exports=java.base/jdk.internal.misc=org.agrona (")
            .doesNotContain("ALL-UNNAMED", "manifest");
    }

    @Test
    void nothingIsMissingNothingIsSaid() {
        assertThat(JvmFlags.problem(true, "ALL-UNNAMED", true, "ALL-UNNAMED")).isEmpty();
    }
}
