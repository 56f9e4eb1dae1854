package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

/**
 * {@code metrics(true)}: the meters of {@link RdmaMeters} appear in Micrometer's global registry for a server and for
 * a client's connection, count their traffic, and go away when the server or the connection is disposed; without
 * Micrometer, {@code metrics(true)} fails at once naming the dependency.
 */
class MetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    @ShmTestDirectory
    private Path directory;

    @BeforeEach
    void setUp() {
        Metrics.addRegistry(registry);
    }

    @AfterEach
    void tearDown() {
        Metrics.removeRegistry(registry);
        registry.close();
    }

    @Test
    void theMetersCountTheTrafficAndGoAwayOnDispose() {
        final String address = ShmTestSupport.uniqueAddress("metrics");
        final DisposableServer server = ShmTestSupport.server(directory, address).metrics(true)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bindNow(ShmTestSupport.BOUND);
        final Connection connection = ShmTestSupport.client(directory, address).metrics(true)
            .connectNow(ShmTestSupport.BOUND);
        try {
            assertThat(count(registry, RdmaMeters.MESSAGES_SENT, "client", address)).isZero();
            for (int i = 0; i < 5; i++) {
                assertThat(connection.requestResponse("m" + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("m" + i);
            }
            // the driver counts a message when it posts it, after the call's answer may already be back
            await().atMost(ShmTestSupport.BOUND).untilAsserted(() -> {
                assertThat(count(registry, RdmaMeters.MESSAGES_SENT, "client", address)).isGreaterThanOrEqualTo(5);
                assertThat(count(registry, RdmaMeters.MESSAGES_RECEIVED, "client", address)).isGreaterThanOrEqualTo(5);
                assertThat(count(registry, RdmaMeters.MESSAGES_RECEIVED, "server", address)).isGreaterThanOrEqualTo(5);
                assertThat(count(registry, RdmaMeters.BYTES_SENT, "server", address)).isGreaterThanOrEqualTo(10);
            });
            assertThat(registry.find(RdmaMeters.LOOP_STALLS).tag(RdmaMeters.SIDE_TAG, "server").functionCounter())
                .isNotNull();
        } finally {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        }
        await().atMost(ShmTestSupport.BOUND).untilAsserted(() -> assertThat(meters(Metrics.globalRegistry, "client",
            address)).as("the client's meters once its connection is disposed").isZero());
        assertThat(meters(Metrics.globalRegistry, "server", address)).isEqualTo(8);
        server.dispose();
        server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        await().atMost(ShmTestSupport.BOUND).untilAsserted(() -> assertThat(meters(Metrics.globalRegistry, "server",
            address)).as("the server's meters once it is disposed").isZero());
        assertThat(meters(registry, "server", address)).as("removed from the registries below the global one too")
            .isZero();
    }

    @Test
    void withoutMetricsNoMeterIsRegistered() {
        final String address = ShmTestSupport.uniqueAddress("no-metrics");
        final DisposableServer server = ShmTestSupport.server(directory, address).metrics(true).metrics(false)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bindNow(ShmTestSupport.BOUND);
        final Connection connection = ShmTestSupport.client(directory, address).connectNow(ShmTestSupport.BOUND);
        try {
            assertThat(connection.requestResponse("x", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("x");
            assertThat(meters(Metrics.globalRegistry, "client", address)).isZero();
            assertThat(meters(Metrics.globalRegistry, "server", address)).isZero();
        } finally {
            connection.dispose();
            server.dispose();
            server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void bindRegistersInARegistryOfOneOwnAndDisposeRemoves() {
        final MeterRegistry own = new SimpleMeterRegistry();
        final RdmaCounters counters = new RdmaCounters(7, 6, 5, 4, 3, 2, 1, 9);
        final Disposable binding = RdmaMeters.bind(own, "client", "orders", () -> counters);
        assertThat(count(own, RdmaMeters.MESSAGES_SENT, "client", "orders")).isEqualTo(7);
        assertThat(count(own, RdmaMeters.BYTES_RECEIVED, "client", "orders")).isEqualTo(4);
        assertThat(count(own, RdmaMeters.LOOP_STALLS, "client", "orders")).isEqualTo(9);
        assertThat(own.getMeters()).hasSize(8);
        binding.dispose();
        assertThat(own.getMeters()).isEmpty();
        assertThat(binding.isDisposed()).isTrue();
    }

    @Test
    void metricsWithoutMicrometerOnTheClassPathFailsNamingTheDependency() {
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
            assertThatThrownBy(() -> MicrometerPresence.require("RdmaClient.metrics(true)", bare))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RdmaClient.metrics(true)")
                .hasMessageContaining("io.micrometer:micrometer-core");
        } catch (final java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        MicrometerPresence.require("here, where it is present");
    }

    private static double count(final MeterRegistry registry, final String meter, final String side,
                                final String name) {
        final FunctionCounter counter = registry.find(meter).tag(RdmaMeters.SIDE_TAG, side)
            .tag(RdmaMeters.NAME_TAG, name).functionCounter();
        assertThat(counter).as("%s{side=%s,name=%s}", meter, side, name).isNotNull();
        return counter.count();
    }

    private static int meters(final MeterRegistry registry, final String side, final String name) {
        return (int) registry.getMeters().stream().filter(meter -> meter.getId().getName().startsWith("rdma.")
                && side.equals(meter.getId().getTag(RdmaMeters.SIDE_TAG))
                && name.equals(meter.getId().getTag(RdmaMeters.NAME_TAG))).count();
    }
}
