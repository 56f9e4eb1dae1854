package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
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
    void aDeviceRegistersAtMostHalfThePhysicalMemoryByDefault() {
        final long physical = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
            .getOperatingSystemMXBean()).getTotalMemorySize();
        assertThat(DeviceOptions.defaults().maxRegisteredBytes()).isEqualTo(physical / 2);
        final Path directory = ShmTestSupport.newDirectory();
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory)
            .build())) {
            assertThat(device.limits().maxRegisteredBytes()).isEqualTo(physical / 2);
        } finally {
            ShmTestSupport.deleteDirectory(directory);
        }
    }
}
