package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.perf.compare.transport.AeronTransport;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.NettyTcpTransport;
import io.rdmareactive.perf.compare.transport.RSocketTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Transport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The congestion and failure workloads (incast, all-to-all, peer-kill) for a fraction of a second on shared memory
 * and on one other transport each: every message and probe arrives once, in order, with its length; every survivor
 * of a killed peer reports it; the figures are filled in. Nothing about speed, fairness or detection time is
 * asserted.
 */
class TrafficWorkloadsSmokeTest {

    @TempDir
    Path directory;

    private Settings settings(final String... more) {
        final CompareCommand command = new CompareCommand(new PrintStream(PrintStream.nullOutputStream()));
        final List<String> args = new ArrayList<>(List.of("--warm-up=50ms", "--duration=300ms", "--idle=backoff",
            "--output=" + directory));
        args.addAll(List.of(more));
        new CommandLine(command).parseArgs(args.toArray(String[]::new));
        return command.settings("none");
    }

    private Transport transport(final String name) {
        return switch (name) {
            case "rr-shm-flux" -> new ReactiveTransport("shm", Idle.BACKOFF, directory.resolve("shm"), null);
            case "aeron-ipc" -> new AeronTransport(false, Idle.BACKOFF, directory);
            case "rsocket-tcp" -> new RSocketTransport();
            default -> new NettyTcpTransport();
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"rr-shm-flux", "netty-tcp", "rsocket-tcp"})
    void incastDeliversEveryBulkMessageAndProbe(final String name) throws Exception {
        final Settings settings = settings("--incast-senders=3", "--incast-size=1024", "--incast-probe-rate=200");
        try (Transport transport = transport(name)) {
            final Results.Incast incast = IncastWorkload.run(transport, 3, settings, ms -> { });
            assertThat(incast.sent()).isPositive();
            assertThat(incast.received()).isEqualTo(incast.sent());
            assertThat(incast.lost() + incast.outOfOrder()).isZero();
            assertThat(incast.probesSent()).isPositive();
            assertThat(incast.probesReceived()).isEqualTo(incast.probesSent());
            assertThat(incast.probesWrong()).isZero();
            assertThat(incast.shares()).hasSize(3);
            assertThat(incast.perSenderPerSecond()).hasSize(3);
            assertThat(incast.probePercentilesMicros()).containsKeys("p50", "p99", "max");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rr-shm-flux", "aeron-ipc"})
    void allToAllDeliversEveryPairsMessagesInOrder(final String name) throws Exception {
        final Settings settings = settings("--all-to-all-parties=3");
        try (Transport transport = transport(name)) {
            for (final int size : new int[] {32, 70_000}) {
                final Results.AllToAll point = AllToAllWorkload.run(transport, 3, size, settings, ms -> { });
                assertThat(point.pairs()).hasSize(6);
                assertThat(point.sent()).isPositive();
                assertThat(point.received()).isEqualTo(point.sent());
                assertThat(point.lost() + point.outOfOrder()).isZero();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rr-shm-flux", "netty-tcp"})
    void peerKillSurvivorsReportTheKilledPeerAndLoseNothing(final String name) throws Exception {
        final Settings settings = settings("--peer-kill-peers=3", "--peer-kill-wait=20s");
        try (Transport transport = transport(name)) {
            final Results.PeerKill run = PeerKillWorkload.run(transport, settings, ms -> { });
            assertThat(run.problem()).isNull();
            assertThat(run.killed()).isEqualTo(2);
            assertThat(run.survivors()).extracting(Results.Survivor::peer).containsExactly(0, 1);
            for (final Results.Survivor survivor : run.survivors()) {
                assertThat(survivor.detectedMillis()).as("peer " + survivor.peer() + " noticed").isNotNaN();
                assertThat(survivor.checked()).isPositive();
                assertThat(survivor.lost()).isZero();
                assertThat(survivor.duplicated()).isZero();
            }
        }
    }

    @Test
    void jainsIndexIsOneWhenFairAndOneOverNWhenOneTakesAll() {
        assertThat(IncastWorkload.jain(new double[] {5, 5, 5, 5})).isEqualTo(1.0);
        assertThat(IncastWorkload.jain(new double[] {8, 0, 0, 0})).isEqualTo(0.25);
        assertThat(IncastWorkload.jain(new double[] {0, 0})).isNaN();
    }

    @Test
    void everyOrderedPairHasItsOwnStream() {
        for (int to = 0; to < 4; to++) {
            for (int stream = 0; stream < 3; stream++) {
                final int from = AllToAllWorkload.source(to, stream);
                assertThat(from).isNotEqualTo(to);
                assertThat(AllToAllWorkload.stream(from, to)).isEqualTo(stream);
            }
        }
    }

    @Test
    void theTablesShowTheCongestionWorkloads() throws Exception {
        final Settings settings = settings("--incast-size=256");
        final Results results = new Results();
        try (Transport transport = transport("rr-shm-flux")) {
            results.incast.add(IncastWorkload.run(transport, 2, settings, ms -> { }));
            results.allToAll.add(AllToAllWorkload.run(transport, 2, 64, settings, ms -> { }));
        }
        assertThat(Tables.incast(results)).contains("rr-shm-flux").contains("Jain");
        assertThat(Tables.allToAll(results)).contains("rr-shm-flux").contains("pair min/s");
        assertThat(ResultsJson.toJson(results)).contains("\"incast\"").contains("\"allToAll\"")
            .contains("jainIndex");
    }
}
