package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a result file records about the machine: every item there, named, and the shm provider among the providers. */
class RdmaEnvironmentTest {

    @Test
    void describesTheMachineItsRdmaStackAndTheCommitInAStableOrder() {
        final Map<String, String> environment = RdmaEnvironment.describe();
        assertThat(environment.keySet()).containsExactly("cpuModel", "cores", "cpusAllowed", "memory", "kernel", "os",
            "jdk", "rdmaProviders", "rdmaDevices", "rdmaCore", "perftest", "emulation", "commit");
        assertThat(environment.values()).allSatisfy(value -> assertThat(value).isNotBlank());
        assertThat(Integer.parseInt(environment.get("cores"))).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(environment.get("rdmaProviders")).contains("shm available");
        assertThat(environment.get("jdk")).contains(System.getProperty("java.runtime.version"));
        assertThat(environment.get("emulation")).containsAnyOf("virtual machine", "bare metal");
    }
}
