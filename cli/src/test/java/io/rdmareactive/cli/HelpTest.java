package io.rdmareactive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every command parses its --help and prints a usage under its own name; the top level lists them all. */
class HelpTest {

    @ParameterizedTest
    @ValueSource(strings = {"info", "stat", "ping", "pong", "perf"})
    void everyCommandPrintsItsUsage(final String command) {
        // picocli warns on System.err of its own accord, e.g. when a description is not a valid format string
        final PrintStream systemErr = System.err;
        final ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        final CliRun run;
        try {
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            run = CliRun.of(command, "--help");
        } finally {
            System.setErr(systemErr);
        }

        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.out()).as(run.toString()).contains("Usage: rdma-reactive " + command + " ");
        assertThat(run.err()).isEmpty();
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"info", "stat", "ping", "pong", "perf"})
    void theHelpCommandPrintsTheSameUsage(final String command) {
        assertThat(CliRun.of("help", command).out()).isEqualTo(CliRun.of(command, "--help").out());
    }

    @Test
    void theTopLevelListsEveryCommand() {
        final CliRun run = CliRun.of("--help");

        assertThat(run.status()).isZero();
        assertThat(run.lines()).as(run.toString())
            .contains("Usage: rdma-reactive [-hV] [COMMAND]")
            .anyMatch(line -> line.startsWith("  info  RDMA devices"))
            .anyMatch(line -> line.startsWith("  stat  Every rdma-reactive runtime's counters"))
            .anyMatch(line -> line.startsWith("  ping  Round trips against a pong"))
            .anyMatch(line -> line.startsWith("  pong  Echo every message"))
            .anyMatch(line -> line.startsWith("  perf  Compare transports in one run"))
            .anyMatch(line -> line.startsWith("  help  "));
    }

    @Test
    void noCommandIsAUsageError() {
        final CliRun run = CliRun.of();

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains("name a command: info, stat, ping, pong, perf or help")
            .contains("Usage: rdma-reactive");
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        final CliRun run = CliRun.of("pingg");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains("Unmatched argument at index 0: 'pingg'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "info --version", "stat --version", "ping --version", "pong --version",
        "perf --version"})
    void theVersionIsTheBuildsVersion(final String args) {
        final CliRun run = CliRun.of(args.split(" "));

        assertThat(run.status()).isZero();
        assertThat(run.out()).as(run.toString()).matches("(?s)rdma-reactive [0-9]+\\.[0-9]+\\.[0-9]+(-SNAPSHOT)?, "
            + "Java .*");
    }
}
