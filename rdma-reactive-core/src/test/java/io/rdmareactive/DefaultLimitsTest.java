package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every limit a server applies to its peers is finite out of the box. */
class DefaultLimitsTest {

    @Test
    void aServerLimitsConnectionsAndHandshakesByDefault() {
        assertThat(RdmaConfig.DEFAULTS.maxConnections()).isEqualTo(1024);
        assertThat(RdmaConfig.DEFAULTS.maxPendingHandshakes()).isEqualTo(64);
    }

    @Test
    void aRuntimeRegistersAtMostHalfThePhysicalMemoryByDefault() {
        final long physical = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
            .getOperatingSystemMXBean()).getTotalMemorySize();
        assertThat(RdmaRuntime.DEFAULT_MAX_REGISTERED_BYTES).isEqualTo(physical / 2);
        final Path directory = ShmTestSupport.newDirectory();
        final RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").directory(directory).build();
        try {
            assertThat(runtime.device.limits().maxRegisteredBytes()).isEqualTo(physical / 2);
        } finally {
            runtime.dispose();
            ShmTestSupport.deleteDirectory(directory);
        }
    }
}
