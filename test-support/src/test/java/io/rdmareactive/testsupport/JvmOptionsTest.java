package io.rdmareactive.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JvmOptionsTest {

    @Test
    void aDebuggerAgentIsNotPassedOnAndTheProjectsTwoFlagsAreAddedWhenMissing() {
        assertThat(JvmOptions.inherited(List.of("-Xmx512m",
            "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "-XX:TieredStopAtLevel=1",
            "-Xrunjdwp:transport=dt_socket", "-Drdma.idle=backoff")))
            .containsExactly("-Xmx512m", "-XX:TieredStopAtLevel=1", "-Drdma.idle=backoff",
                "--enable-native-access=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");
    }

    @Test
    void theProjectsTwoFlagsAreNotRepeatedWhenThisJvmHasThem() {
        final List<String> options = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-XX:+UseSerialGC");
        assertThat(JvmOptions.inherited(options)).isEqualTo(options);
    }
}
