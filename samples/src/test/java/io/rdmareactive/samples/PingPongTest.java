package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the ping-pong sample with small counts: the ping in this JVM, the pong as the child JVM it starts itself, or
 * as a long-running pong started by hand. Checks what it reports (every echo correct, the percentile lines there),
 * never a timing value.
 */
class PingPongTest {

    private static final Duration PONG_BOUND = Duration.ofSeconds(60);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void thePingStartsItsPongAndEveryEchoIsCorrect() throws Exception {
        try (SampleRun run = new SampleRun()) {
            final int status = PingPong.run(new String[] {"--round-trips=2000 --size=48",
                "--directory=" + run.directory}, run.out);

            assertThat(status).as(run.output()).isZero();
            assertThat(run.lines()).as(run.output())
                .anyMatch(line -> line.startsWith("rdma-reactive ping-pong (Reactor API): provider 'shm', "
                    + "2 processes, 2000 round trips of 48 bytes"))
                .contains("  [pong] pong: echoed 2000 messages")
                .contains("round trips: 1800 measured (200 warm-up discarded); echoed bytes checked: all correct")
                .contains("round-trip time")
                .anyMatch(line -> line.matches("  p50 +[0-9]+\\.[0-9]{2} us"))
                .anyMatch(line -> line.matches("  p90 +[0-9]+\\.[0-9]{2} us"))
                .anyMatch(line -> line.matches("  p99 +[0-9]+\\.[0-9]{2} us"))
                .anyMatch(line -> line.matches("  p99\\.9 +[0-9]+\\.[0-9]{2} us"))
                .anyMatch(line -> line.matches("  max +[0-9]+\\.[0-9]{2} us"))
                .anyMatch(line -> line.matches("throughput: [0-9]+ round trips/s \\(one in flight at a time\\)"))
                .noneMatch(line -> line.contains("MISMATCH") || line.contains("FAILED"));
            assertThat(run.leftovers()).as("shared-memory files left after both sides closed").isEmpty();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aPongStartedByHandServesOnePingAfterAnother() throws Exception {
        try (SampleRun run = new SampleRun()) {
            final List<String> pongLines;
            try (ChildJvm pong = startPong(run.directory, "by-hand")) {
                pong.awaitLine("pong: listening at 'by-hand'");
                for (int ping = 0; ping < 2; ping++) {
                    final int status = PingPong.run(new String[] {"--role=ping", "--address=by-hand",
                        "--round-trips=500", "--directory=" + run.directory}, run.out);
                    assertThat(status).as(run.output()).isZero();
                }
                pong.awaitLines("pong: echoed 500 messages", 2, PONG_BOUND);
                pong.terminate(Duration.ofSeconds(20)); // SIGTERM: its shutdown hook closes the server
                pongLines = pong.lines();
            }
            assertThat(run.lines()).as(run.output())
                .filteredOn(line -> line.contains("pong at 'by-hand'")).hasSize(2);
            assertThat(run.lines()).as(run.output())
                .filteredOn(line -> line.equals("round trips: 450 measured (50 warm-up discarded); echoed bytes "
                    + "checked: all correct")).hasSize(2);
            assertThat(run.leftovers()).as("files left after the pong stopped; it said: " + pongLines).isEmpty();
        }
    }

    @Test
    void anUnknownOptionIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> PingPong.run(new String[] {"--round-trip=5"}, System.out))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("--round-trip=5")
            .hasMessageContaining("--round-trips=N");
        assertThatThrownBy(() -> PingPong.run(new String[] {"--role=pong"}, System.out))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("--address=NAME");
        assertThatThrownBy(() -> PingPong.run(new String[] {"--idle=lazy"}, System.out))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("busy-spin");
    }

    private static ChildJvm startPong(final Path directory, final String address) {
        return ChildJvmLauncher.of(PingPong.class)
            .args("--role=pong", "--address=" + address, "--directory=" + directory,
                "--idle=" + System.getProperty("rdma.idle", "backoff"))
            .bound(PONG_BOUND).start();
    }
}
