package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.perf.compare.transport.AeronTransport;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.NettyTcpTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Transport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The all-reduce workload at tiny sizes on shared memory and on Aeron and TCP, 3 ranks: every size has a row, every
 * element on every rank was right, the figures are positive. Nothing about speed is asserted.
 */
class AllReduceSmokeTest {

    @TempDir
    Path directory;

    private Settings settings() {
        final CompareCommand command = new CompareCommand(new PrintStream(PrintStream.nullOutputStream()));
        new CommandLine(command).parseArgs("--idle=backoff", "--output=" + directory, "-w", "all-reduce",
            "--allreduce-ranks=3", "--allreduce-sizes=8,4100,65536");
        return command.settings("none");
    }

    private Transport transport(final String name) {
        return switch (name) {
            case "rr-shm-flux" -> new ReactiveTransport("shm", Idle.BACKOFF, directory.resolve("shm"), null);
            case "aeron-ipc" -> new AeronTransport(false, Idle.BACKOFF, directory);
            default -> new NettyTcpTransport();
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"rr-shm-flux", "aeron-ipc", "netty-tcp"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everySizeIsSummedRightOnEveryRank(final String name) throws Exception {
        try (Transport transport = transport(name)) {
            final List<Results.AllReduce> rows = AllReduceWorkload.run(transport, settings(), ms -> { });

            assertThat(rows).extracting(Results.AllReduce::bytes).containsExactly(8L, 4100L, 65536L);
            for (final Results.AllReduce row : rows) {
                assertThat(row.transport()).isEqualTo(name);
                assertThat(row.ranks()).isEqualTo(3);
                assertThat(row.wrong()).as("wrong elements at %d bytes", row.bytes()).isZero();
                assertThat(row.micros()).isPositive();
                assertThat(row.algbwGBs()).isPositive();
                assertThat(row.busbwGBs()).isEqualTo(row.algbwGBs() * 4 / 3, org.assertj.core.data.Offset.offset(
                    1e-9));
            }
        }
    }

    @Test
    void aRowWithAWrongElementShowsNoFigures() {
        final Results results = new Results();
        results.allReduce.add(new Results.AllReduce("netty-tcp", 4, 1 << 20, 64, 1234.5, 0.85, 1.27, 0));
        results.allReduce.add(new Results.AllReduce("aeron-ipc", 4, 1 << 20, 64, 1234.5, 0.85, 1.27, 3));

        final String table = Tables.allReduce(results);

        assertThat(table).contains("1234.5").contains("FAILED");
        assertThat(table.lines().filter(line -> line.startsWith("aeron-ipc")).findFirst().orElseThrow())
            .doesNotContain("1234.5").endsWith("3  FAILED");
    }
}
