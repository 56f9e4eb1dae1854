package io.rdmareactive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ping} on shared memory: against an echo server in this JVM, against {@code rdma-reactive pong} in a child
 * JVM, and with the pong it starts itself. Each run completes its round trips with every echo right and prints the
 * percentiles; no timing value is asserted.
 */
@Timeout(120)
class PingCommandTest {

    @Test
    void pingsAnEchoServerAndPrintsThePercentiles(@ShmTestDirectory final Path directory) throws Exception {
        final DisposableServer server = RdmaServer.create().provider("shm").directory(directory)
            .address("cli-echo").handle((in, out) -> out.send(in.receive(Codecs.BYTE_ARRAY), Codecs.BYTE_ARRAY))
            .bind().block(Duration.ofSeconds(20));
        try {
            final CliRun run = CliRun.of("ping", "--address=cli-echo", "--directory=" + directory,
                "--round-trips=300", "--size=64");

            assertThat(run.status()).as(run.toString()).isZero();
            assertThat(run.lines()).as(run.toString())
                .anyMatch(line -> line.startsWith("rdma-reactive ping-pong (Reactor API): provider 'shm', pong at "
                    + "'cli-echo', 300 round trips of 64 bytes"))
                .contains("round trips: 270 measured (30 warm-up discarded); echoed bytes checked: all correct");
            assertPercentiles(run);
        } finally {
            server.dispose();
            server.onDispose().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void pingsThePongCommandInAnotherJvm(@ShmTestDirectory final Path directory) throws Exception {
        try (ChildJvm pong = ChildJvmLauncher.of(RdmaReactiveCli.class)
            .args("pong", "--address=cli-pong", "--directory=" + directory, "--once",
                "--idle=" + System.getProperty("rdma.idle", "backoff"))
            .bound(Duration.ofSeconds(60)).start()) {
            pong.awaitLine("pong: listening at 'cli-pong' (one connection");

            final CliRun run = CliRun.of("ping", "-a", "cli-pong", "-d", directory.toString(), "-n", "200");

            assertThat(run.status()).as(run.toString()).isZero();
            assertThat(run.lines()).as(run.toString())
                .contains("round trips: 180 measured (20 warm-up discarded); echoed bytes checked: all correct");
            assertPercentiles(run);
            assertThat(pong.exitsWithin(Duration.ofSeconds(30))).as("the pong exits after its one ping: "
                + pong.lines()).isTrue();
            assertThat(pong.exitValue()).as(String.valueOf(pong.lines())).isZero();
            assertThat(pong.lines()).contains("pong: echoed 200 messages");
        }
    }

    @Test
    void withoutAnAddressItStartsItsOwnPong(@ShmTestDirectory final Path directory) throws Exception {
        final CliRun run = CliRun.of("ping", "--directory=" + directory, "--round-trips=100");

        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.lines()).as(run.toString())
            .anyMatch(line -> line.startsWith("rdma-reactive ping-pong (Reactor API): provider 'shm', 2 processes, "
                + "100 round trips of 32 bytes"))
            .contains("  [pong] pong: echoed 100 messages")
            .contains("round trips: 90 measured (10 warm-up discarded); echoed bytes checked: all correct");
        assertPercentiles(run);
    }

    @Test
    void noPongAtTheAddressFailsWithAMessage(@ShmTestDirectory final Path directory) throws Exception {
        final CliRun run = CliRun.of("ping", "--address=nobody-here", "--directory=" + directory,
            "--round-trips=10", "--startup-seconds=5");

        assertThat(run.status()).as(run.toString()).isEqualTo(1);
        assertThat(run.err()).as(run.toString()).startsWith("rdma-reactive ping: ").contains("nobody-here");
    }

    @Test
    void wrongOptionsAreUsageErrors() {
        final CliRun verbs = CliRun.of("ping", "--provider=verbs");
        assertThat(verbs.status()).isEqualTo(2);
        assertThat(verbs.err()).as(verbs.toString()).contains("--provider=verbs needs --address of a running pong");

        final CliRun size = CliRun.of("ping", "--address=x", "--size=0");
        assertThat(size.status()).isEqualTo(2);
        assertThat(size.err()).as(size.toString()).contains("--size must be from 1 to 1048576, not 0");

        final CliRun space = CliRun.of("ping", "--address=x", "--directory=/tmp/a b");
        assertThat(space.status()).isEqualTo(2);
        assertThat(space.err()).as(space.toString()).contains("--directory must be a value without white space");

        assertThat(CliRun.of("pong").err()).contains("Missing required option: '--address=ADDRESS'");
    }

    private static void assertPercentiles(final CliRun run) {
        assertThat(run.lines()).as(run.toString())
            .contains("round-trip time")
            .anyMatch(line -> line.matches("  p50 +[0-9]+\\.[0-9]{2} us"))
            .anyMatch(line -> line.matches("  p90 +[0-9]+\\.[0-9]{2} us"))
            .anyMatch(line -> line.matches("  p99 +[0-9]+\\.[0-9]{2} us"))
            .anyMatch(line -> line.matches("  p99\\.9 +[0-9]+\\.[0-9]{2} us"))
            .anyMatch(line -> line.matches("  max +[0-9]+\\.[0-9]{2} us"))
            .anyMatch(line -> line.matches("throughput: [0-9]+ round trips/s \\(one in flight at a time\\)"))
            .noneMatch(line -> line.contains("MISMATCH") || line.contains("FAILED"));
    }
}
