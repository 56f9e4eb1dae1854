package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.Connection;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.RSocketTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The request-response, connections, memcpy and rma workloads for a fraction of a second each, with tiny counts:
 * results are produced, every answer (and one-sided operation) is checked and right, every connection opens and
 * closes, a point whose connections cannot all open is marked failed. Nothing about speed is asserted, nor anything that depends on it (refusals, how
 * many calls fit in the measured window).
 */
class NewWorkloadsSmokeTest {

    @TempDir
    Path directory;

    private Settings settings(final String... more) {
        final CompareCommand command = new CompareCommand(new PrintStream(PrintStream.nullOutputStream()));
        final List<String> args = new ArrayList<>(List.of("--warm-up=50ms", "--duration=200ms", "--idle=backoff",
            "--rr-in-flight=16", "--connection-counts=1,3", "--output=" + directory));
        args.addAll(List.of(more));
        new CommandLine(command).parseArgs(args.toArray(String[]::new));
        return command.settings("none");
    }

    private ReactiveTransport shm() {
        return new ReactiveTransport("shm", Idle.BACKOFF, directory.resolve("shm"), null);
    }

    @Test
    void requestResponseAnswersEveryCallWithItsOwnBytes() throws Exception {
        try (ReactiveTransport transport = shm()) {
            for (final int size : new int[] {32, 70_000}) {
                final List<Results.RequestResponse> results = RequestResponseWorkload.run(transport, size,
                    settings(), ms -> { });
                assertThat(results).extracting(Results.RequestResponse::inFlight).containsExactly(1, 16);
                for (final Results.RequestResponse rr : results) {
                    assertThat(rr.transport()).isEqualTo("rr-shm-flux");
                    assertThat(rr.size()).isEqualTo(size);
                    assertThat(rr.checked()).as(rr.mode() + " answers checked at " + size).isPositive();
                    assertThat(rr.wrongAnswers()).as(rr.mode() + " wrong answers").isZero();
                    assertThat(rr.failedCalls()).as(rr.mode() + " failed calls: " + rr.firstFailure()).isZero();
                    assertThat(rr.percentilesMicros()).containsKeys("p50", "p90", "p99", "max");
                }
                // the closed loop makes at least one call in its window, whatever the machine's speed
                assertThat(results.get(0).calls()).isPositive();
            }
        }
    }

    @Test
    void rsocketRequestResponseAnswersEveryCallWithItsOwnBytes() throws Exception {
        try (RSocketTransport transport = new RSocketTransport()) {
            for (final int size : new int[] {32, 70_000}) {
                final List<Results.RequestResponse> results = RequestResponseWorkload.run(transport, size,
                    settings(), ms -> { });
                assertThat(results).extracting(Results.RequestResponse::inFlight).containsExactly(1, 16);
                for (final Results.RequestResponse rr : results) {
                    assertThat(rr.transport()).isEqualTo("rsocket-tcp");
                    assertThat(rr.checked()).as(rr.mode() + " answers checked at " + size).isPositive();
                    assertThat(rr.wrongAnswers()).as(rr.mode() + " wrong answers").isZero();
                    assertThat(rr.failedCalls()).as(rr.mode() + " failed calls: " + rr.firstFailure()).isZero();
                }
            }
        }
    }

    @Test
    void everyConnectionOpensAnswersAndCloses() throws Exception {
        final Settings settings = settings();
        try (ReactiveTransport transport = shm()) {
            for (final int count : settings.connectionCounts()) {
                final Results.Connections point = ConnectionsWorkload.run(transport, count, settings, ms -> { });
                assertThat(point.failure()).as("failure at " + count).isNull();
                assertThat(point.opened()).isEqualTo(count);
                assertThat(point.calls()).as("calls over " + count + " connections").isPositive();
                assertThat(point.checked()).isPositive();
                assertThat(point.wrongAnswers() + point.failedCalls()).isZero();
                assertThat(point.notClosed()).isZero();
                assertThat(point.open().threads()).isPositive();
                // while open, each connection has threads of the library's (today a driver and a worker at least)
                assertThat(point.open().libraryThreads()).isGreaterThan(point.before().libraryThreads());
                assertThat(point.open().libraryThreadsByKind()).isNotEmpty();
                assertThat(point.open().rssBytes()).isPositive();
            }
        }
    }

    @Test
    void aPointWhoseOpeningDeadlinePassesIsMarkedFailedAndWhatOpenedIsClosed() throws Exception {
        final Settings tight = settings();
        // a deadline of 1 ns has passed before the first connection can open
        final Settings settings = new Settings(tight.transports(), tight.workloads(), tight.pingSizes(),
            tight.throughputSizes(), tight.streams(), tight.multiStreamSizes(), tight.warmUp(), tight.duration(),
            tight.idle(), tight.fixedRate(), tight.consumerRate(), tight.backpressureSize(), tight.output(),
            tight.verbs(), tight.pinning(), tight.rrSizes(), tight.rrInFlight(), tight.connectionCounts(),
            Duration.ofNanos(1), tight.memcpySizes(), tight.rmaSizes(), tight.rmaInFlight(), tight.traffic());
        try (ReactiveTransport transport = shm()) {
            final Results.Connections point = ConnectionsWorkload.run(transport, 3, settings, ms -> { });
            assertThat(point.failure()).contains("of 3 connections");
            assertThat(point.opened()).isZero();
            assertThat(point.calls()).isZero();
            final Results results = new Results();
            results.connections.add(point);
            assertThat(Tables.connections(results)).contains("FAILED: opened 0 of 3 connections");
        }
    }

    @Test
    void aConnectionThatFailsToOpenEndsTheOpeningWithItsReason() throws Exception {
        try (ReactiveTransport transport = shm()) {
            final List<Connection> opened = new ArrayList<>();
            // nobody listens at this endpoint's address
            final String why = ConnectionsWorkload.open(transport.endpoints(32).client(), 2, Duration.ofSeconds(60),
                opened);
            assertThat(why).startsWith("opened 0 of 2 connections: connection 1 failed: ");
            assertThat(opened).isEmpty();
        }
    }

    @Test
    void memcpyCopiesAtEverySize() {
        final Settings settings = settings("--memcpy-sizes=64,65536,1048576");
        assertThat(settings.memcpySizes()).containsExactly(64, 65536, 1 << 20);
        for (final int size : settings.memcpySizes()) {
            final Results.Memcpy copy = MemcpyWorkload.run(size, settings, ms -> { });
            assertThat(copy.copies()).as("copies of " + size).isPositive();
            assertThat(copy.destinations() * (long) size).isGreaterThanOrEqualTo(MemcpyWorkload.RING_BYTES);
            assertThat(copy.gibPerSecond()).isPositive();
        }
    }

    @Test
    void theNewTablesAndRatiosShowWhatWasMeasured() throws Exception {
        final Settings settings = settings("--memcpy-sizes=1048576");
        final Results results = new Results();
        results.transports.put("rr-shm-flux", "flux");
        try (ReactiveTransport transport = shm()) {
            results.requestResponse.addAll(RequestResponseWorkload.run(transport, 32, settings, ms -> { }));
            for (final int count : settings.connectionCounts()) {
                results.connections.add(ConnectionsWorkload.run(transport, count, settings, ms -> { }));
            }
        }
        results.memcpy.add(MemcpyWorkload.run(1 << 20, settings, ms -> { }));
        results.latency.add(RatiosTest.latency("rr-shm-flux", 32, 40.0, 100.0));
        results.throughput.add(RatiosTest.throughput("rr-shm-flux", 1 << 20, 1000));
        results.ratios.addAll(Ratios.compute(results));
        assertThat(results.ratios).extracting(Results.Ratio::metric).contains(Ratios.RR_VS_PING_PONG,
            Ratios.connectionsMetric(3), Ratios.THROUGHPUT_VS_MEMCPY);
        final String closing = Tables.closing(results);
        assertThat(closing).contains("rr-shm-flux request-response RTT p50 / ping-pong p50, 32 B")
            .contains("rr-shm-flux 3 connections RTT p50 / 1 connection p50")
            .contains("rr-shm-flux library threads at 3 connections")
            .contains("rr-shm-flux throughput / memcpy, 1 MiB");
        assertThat(Tables.requestResponse(results)).contains("in flight").contains("rr-shm-flux");
        assertThat(Tables.connections(results)).contains("rr-shm-flux").contains("ok");
        assertThat(Tables.memcpy(results)).contains("memcpy        1 MiB").contains("rr-shm-flux");
        assertThat(ResultsJson.toJson(results)).contains("\"requestResponse\"").contains("\"connections\"")
            .contains("\"memcpy\"").contains("libraryThreadsByKind");
    }

    @Test
    void libraryThreadsAreGroupedByKind() {
        assertThat(ProcessFootprint.kind("rdma-driver-client-perf-1-2")).isEqualTo("rdma-driver");
        assertThat(ProcessFootprint.kind("rdma-worker-server-3-17")).isEqualTo("rdma-worker");
        assertThat(ProcessFootprint.kind("rdma-shm-cm-5")).isEqualTo("rdma-shm-cm");
        assertThat(ProcessFootprint.kind("rdma-loop-0")).isEqualTo("rdma-loop");
    }

    @Test
    void rmaChecksEveryOperationAgainstAServerProcessAndMetersItsCpu() throws Exception {
        final List<Results.Rma> rows = new ArrayList<>();
        final List<Results.Failure> failures = new ArrayList<>();
        try (ReactiveTransport transport = shm();
             Progress progress = new Progress("rma", 1000)) {
            RmaWorkload.run(transport, settings("--rma-sizes=32,65536", "--rma-in-flight=8"), progress, rows,
                failures);
        }
        assertThat(failures).isEmpty();
        assertThat(rows).extracting(r -> r.operation() + " " + r.size() + " x" + r.inFlight()).containsExactly(
            "request-response 32 x1", "read 32 x1", "read 32 x8", "write 32 x1", "write 32 x8",
            "request-response 65536 x1", "read 65536 x1", "read 65536 x8", "write 65536 x1", "write 65536 x8",
            "fetch-and-add 8 x1", "fetch-and-add 8 x8");
        for (final Results.Rma row : rows) {
            assertThat(row.checked()).as(row.operation() + " checked").isPositive();
            assertThat(row.serverCpuNanosPerOperation()).as(row.operation() + " server CPU").isNotNaN();
        }
    }
}
