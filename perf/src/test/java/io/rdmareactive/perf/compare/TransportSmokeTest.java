package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.perf.compare.transport.AeronTransport;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.NettyTcpTransport;
import io.rdmareactive.perf.compare.transport.RSocketTransport;
import io.rdmareactive.perf.compare.transport.RawSpiTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each transport through each workload for a fraction of a second: every echo and every message must come back
 * once, in order, with its length; nothing about speed is asserted.
 */
class TransportSmokeTest {

    @TempDir
    Path directory;

    private Settings settings() {
        return new Settings(List.of(), Set.of(), List.of(), List.of(), List.of(1), List.of(), Duration.ofMillis(50),
            Duration.ofMillis(200), Idle.BACKOFF, 2000, 5000, 256, directory, null, "none", List.of(32), 16,
            List.of(1), Duration.ofSeconds(30), List.of(1 << 16), List.of(32), 16, Traffic.defaults());
    }

    private Transport transport(final String name) {
        return switch (name) {
            case "aeron-ipc" -> new AeronTransport(false, Idle.BACKOFF, directory);
            case "aeron-udp" -> new AeronTransport(true, Idle.BACKOFF, directory);
            case "rr-shm-raw" -> new RawSpiTransport("shm", Idle.BACKOFF, directory.resolve("shm"), null);
            case "rr-shm-flux" -> new ReactiveTransport("shm", Idle.BACKOFF, directory.resolve("shm"), null);
            case "rsocket-tcp" -> new RSocketTransport();
            default -> new NettyTcpTransport();
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"aeron-ipc", "aeron-udp", "rr-shm-raw", "rr-shm-flux", "netty-tcp", "rsocket-tcp"})
    void everyMessageArrivesOnceInOrder(final String name) throws Exception {
        try (Transport transport = transport(name)) {
            assertThat(transport.name()).isEqualTo(name);
            for (final int size : new int[] {32, 70_000}) {
                final List<Results.Latency> latency = PingPongWorkload.run(transport, size, settings(), ms -> { });
                assertThat(latency).extracting(Results.Latency::mode).containsExactly("closed-loop", "fixed-rate");
                for (final Results.Latency result : latency) {
                    assertThat(result.roundTrips()).as(name + " round trips at " + size).isPositive();
                    assertThat(result.wrongEchoes()).as(name + " echoes out of order or of the wrong length")
                        .isZero();
                }
            }
            for (final int[] point : new int[][] {{4096, 1}, {32, 2}, {1 << 20, 1}}) {
                final Results.Throughput throughput = ThroughputWorkload.run(transport, point[0], point[1],
                    settings(), ms -> { });
                assertThat(throughput.sent()).as(name + " messages sent").isPositive();
                assertThat(throughput.received()).as(name + " messages received").isEqualTo(throughput.sent());
                assertThat(throughput.lost()).isZero();
                assertThat(throughput.outOfOrder()).isZero();
            }
            final Results.Backpressure backpressure = BackpressureWorkload.run(transport, settings(), ms -> { });
            assertThat(backpressure.received()).isEqualTo(backpressure.sent()).isPositive();
            assertThat(backpressure.lost()).isZero();
            assertThat(backpressure.memory()).isNotEmpty();
        }
    }
}
