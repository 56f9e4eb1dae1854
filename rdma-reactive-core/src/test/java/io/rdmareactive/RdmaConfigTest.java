package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.rdmareactive.codec.CodecRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each {@code with} changes its own components, keeps every other one, and leaves the original as it was. */
class RdmaConfigTest {

    @Test
    void everySetterKeepsWhatTheOthersSet() {
        final byte[] secret = new byte[16];
        final CodecRegistry codecs = CodecRegistry.empty();
        final RdmaConfig config = RdmaConfig.DEFAULTS.withProvider("shm").withAddress("a").withDirectory(Path.of("/d"))
            .withRings(4, 8192).withMaxMessageLength(4096).withLiveness(Duration.ofMillis(100), Duration.ofSeconds(2))
            .withPrefetch(7).withIdle("yielding").withRequestTimeout(Duration.ofSeconds(3))
            .withConnectTimeout(Duration.ofSeconds(4)).withCodecs(codecs).withMaxConnections(5)
            .withMaxPendingHandshakes(6).withMaxRegisteredBytes(1 << 20).withSecret(secret).withRuntime(null);

        assertThat(config.provider()).isEqualTo("shm");
        assertThat(config.address()).isEqualTo("a");
        assertThat(config.directory()).isEqualTo(Path.of("/d"));
        assertThat(config.maxStreams()).isEqualTo(4);
        assertThat(config.ringCapacity()).isEqualTo(8192);
        assertThat(config.maxMessageLength()).isEqualTo(4096);
        assertThat(config.keepalive()).isEqualTo(Duration.ofMillis(100));
        assertThat(config.livenessTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.prefetch()).isEqualTo(7);
        assertThat(config.idle()).isEqualTo("yielding");
        assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.codecs()).isSameAs(codecs);
        assertThat(config.maxConnections()).isEqualTo(5);
        assertThat(config.maxPendingHandshakes()).isEqualTo(6);
        assertThat(config.maxRegisteredBytes()).isEqualTo(1 << 20);
        assertThat(config.secret()).isSameAs(secret);
        assertThat(config.runtime()).isNull();
    }

    @Test
    void aSetterChangesOnlyItsComponentsAndNotTheOriginal() {
        final RdmaConfig changed = RdmaConfig.DEFAULTS.withPrefetch(9);
        assertThat(changed.prefetch()).isEqualTo(9);
        assertThat(RdmaConfig.DEFAULTS.prefetch()).isEqualTo(256);
        assertThat(changed).usingRecursiveComparison().ignoringFields("prefetch").isEqualTo(RdmaConfig.DEFAULTS);
    }

    @Test
    void aCopyIsCheckedAsANewConfigIs() {
        assertThatIllegalArgumentException().isThrownBy(() -> RdmaConfig.DEFAULTS.withPrefetch(0))
            .withMessageContaining("prefetch must be positive");
        assertThatIllegalArgumentException().isThrownBy(() -> RdmaConfig.DEFAULTS.withMaxConnections(0))
            .withMessageContaining("maxConnections must be positive");
    }
}
