package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.internal.driver.IdleStrategies;
import io.rdmareactive.internal.protocol.ProtocolOptions;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every limit a server applies to its peers is finite out of the box, and the builders' defaults are the ones
 * docs/getting-started.md documents, the protocol's taken from the protocol's own defaults.
 */
class DefaultLimitsTest {

    @Test
    void theBuildersHaveTheDocumentedDefaults() {
        final RdmaConfig defaults = RdmaConfig.DEFAULTS;
        assertThat(defaults.provider()).isEqualTo("auto");
        assertThat(defaults.address()).isNull();
        assertThat(defaults.directory()).isNull();
        assertThat(defaults.maxStreams()).isEqualTo(16);
        assertThat(defaults.ringCapacity()).isEqualTo(64 * 1024);
        assertThat(defaults.maxMessageLength()).isEqualTo(16 * 1024 * 1024);
        assertThat(defaults.prefetch()).isEqualTo(256);
        assertThat(defaults.keepalive()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.livenessTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.idle()).isEqualTo(IdleStrategies.configured());
        assertThat(defaults.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.codecs()).isSameAs(CodecRegistry.defaults());
        assertThat(defaults.maxRegisteredBytes()).as("0: the runtime's default").isZero();
        assertThat(defaults.secret()).isNull();
        assertThat(defaults.runtime()).isNull();
        assertThat(defaults.protocol()).isEqualTo(ProtocolOptions.DEFAULTS);
    }

    @Test
    void aServerLimitsConnectionsAndHandshakesByDefault() {
        assertThat(RdmaConfig.DEFAULTS.maxConnections()).isEqualTo(1024);
        assertThat(RdmaConfig.DEFAULTS.maxPendingHandshakes()).isEqualTo(64);
    }

    @Test
    void aRuntimeRegistersAtMostHalfThePhysicalMemoryByDefault(@ShmTestDirectory final Path directory) {
        final long physical = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
            .getOperatingSystemMXBean()).getTotalMemorySize();
        assertThat(RdmaRuntime.DEFAULT_MAX_REGISTERED_BYTES).isEqualTo(physical / 2);
        final RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").directory(directory).build();
        try {
            assertThat(runtime.device.limits().maxRegisteredBytes()).isEqualTo(physical / 2);
        } finally {
            runtime.dispose();
        }
    }
}
