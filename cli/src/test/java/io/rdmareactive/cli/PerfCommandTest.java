package io.rdmareactive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code perf} is perf's comparison: its options, and a short run of one workload on one transport. */
class PerfCommandTest {

    @TempDir
    Path output;

    @Test
    void theHelpIsTheComparisonsOptionsUnderItsNewName() {
        final CliRun run = CliRun.of("perf", "--help");

        assertThat(run.status()).isZero();
        assertThat(run.lines()).as(run.toString())
            .startsWith("Compare transports in one run: rdma-reactive, Aeron, Netty, RSocket.")
            .anyMatch(line -> line.startsWith("Usage: rdma-reactive perf "))
            .anyMatch(line -> line.contains("--transports=NAME"))
            .anyMatch(line -> line.contains("--workloads=NAME"));
    }

    @Test
    @Timeout(180)
    void aShortComparisonWritesItsReport() throws Exception {
        final CliRun run = CliRun.of("perf", "--transports=rr-shm-raw", "--workloads=ping-pong", "--ping-sizes=32",
            "--warm-up=200ms", "--duration=300ms", "--fixed-rate=0", "--idle=backoff", "--output=" + output);

        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(output.resolve("results.json")).isNotEmptyFile();
        assertThat(output.resolve("report.html")).isNotEmptyFile();
        assertThat(Files.readString(output.resolve("results.json"))).contains("rr-shm-raw");
        assertThat(run.lines()).as(run.toString()).last().asString().contains(output.toString());
    }

    @Test
    void anUnknownTransportIsAUsageError() {
        final CliRun run = CliRun.of("perf", "--transports=carrier-pigeon");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains("unknown transport 'carrier-pigeon'");
    }
}
