package io.rdmareactive.spi.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJvmCommandTest {

    @Test
    void thePeerGetsThisJvmsOptionsInOrderThenItsOwnThenTheClassPathAndMainClass() {
        final List<String> command = ChildJvmCommand.of(SpiPingPong.class, "-Xmx64m", "-Dpeer=yes");

        final List<String> inherited = ChildJvmCommand.inheritedOptions(
            ManagementFactory.getRuntimeMXBean().getInputArguments());
        assertThat(command.getFirst()).endsWith("/bin/java");
        assertThat(command.subList(1, 1 + inherited.size())).isEqualTo(inherited);
        assertThat(command.subList(1 + inherited.size(), command.size())).containsExactly("-Xmx64m", "-Dpeer=yes",
            "-cp", System.getProperty("java.class.path"), SpiPingPong.class.getName());
    }

    @Test
    void aDebuggerAgentIsNotPassedOnAndTheProjectsTwoFlagsAreAddedWhenMissing() {
        assertThat(ChildJvmCommand.inheritedOptions(List.of("-Xmx512m",
            "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "-XX:TieredStopAtLevel=1",
            "-Xrunjdwp:transport=dt_socket", "-Drdma.idle=backoff")))
            .containsExactly("-Xmx512m", "-XX:TieredStopAtLevel=1", "-Drdma.idle=backoff",
                "--enable-native-access=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");
    }

    @Test
    void theProjectsTwoFlagsAreNotRepeatedWhenThisJvmHasThem() {
        final List<String> options = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-XX:+UseSerialGC");
        assertThat(ChildJvmCommand.inheritedOptions(options)).isEqualTo(options);
    }
}
