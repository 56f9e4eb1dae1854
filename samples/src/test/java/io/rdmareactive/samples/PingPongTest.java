package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
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
            final Process pong = startPong(run.directory, "by-hand");
            final List<String> pongLines = Collections.synchronizedList(new ArrayList<>());
            final Thread reader = Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(pong.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        pongLines.add(line);
                    }
                } catch (final IOException ignored) {
                    // the pong is gone
                }
            });
            try {
                awaitLine(pongLines, "pong: listening at 'by-hand'", pong);
                for (int ping = 0; ping < 2; ping++) {
                    final int status = PingPong.run(new String[] {"--role=ping", "--address=by-hand",
                        "--round-trips=500", "--directory=" + run.directory}, run.out);
                    assertThat(status).as(run.output()).isZero();
                }
                awaitLines(pongLines, "pong: echoed 500 messages", 2, pong);
            } finally {
                pong.destroy(); // SIGTERM: its shutdown hook closes the server
                pong.waitFor(20, TimeUnit.SECONDS);
                pong.destroyForcibly();
                reader.join(5_000);
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

    private static Process startPong(final Path directory, final String address) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), PingPong.class.getName(),
            "--role=pong", "--address=" + address, "--directory=" + directory,
            "--idle=" + System.getProperty("rdma.idle", "backoff"))
            .redirectErrorStream(true).start();
    }

    private static void awaitLine(final List<String> lines, final String line, final Process process)
        throws InterruptedException {
        awaitLines(lines, line, 1, process);
    }

    private static void awaitLines(final List<String> lines, final String prefix, final int count,
                                   final Process process) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            synchronized (lines) {
                if (lines.stream().filter(line -> line.startsWith(prefix)).count() >= count) {
                    return;
                }
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the pong did not print '" + prefix + "' " + count + " times"
                    + (process.isAlive() ? "" : " (it exited)") + "; it printed " + lines);
            }
            Thread.sleep(20);
        }
    }
}
