package io.rdmareactive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;

/**
 * {@code stat} against a directory where a runtime of this JVM runs, after an echo of a few messages: its counters
 * file is found, the runtime is named with this process and shown running, and its counters have the values the
 * exchange gave them.
 */
@Timeout(60)
class StatCommandTest {

    private static final int MESSAGES = 7;
    private static final Pattern COUNTER = Pattern.compile(" {2} *([0-9,]+) {2}(.+)");

    @Test
    void showsTheCountersOfALiveRuntime(@ShmTestDirectory final Path directory) throws Exception {
        final DisposableServer server = echoServer(directory);
        try {
            final Connection connection = RdmaClient.create().provider("shm").directory(directory)
                .address("stat-echo").connect().block(Duration.ofSeconds(20));
            final List<byte[]> echoed = connection.inbound().receive(Codecs.BYTE_ARRAY)
                .doOnSubscribe(s -> connection.outbound().send(Flux.range(0, MESSAGES).map(i -> new byte[100]),
                    Codecs.BYTE_ARRAY).subscribe())
                .take(MESSAGES).collectList().block(Duration.ofSeconds(20));
            assertThat(echoed).hasSize(MESSAGES);

            final CliRun run = CliRun.of("stat", "--once", directory.toString());

            assertThat(run.status()).as(run.toString()).isZero();
            final long pid = ProcessHandle.current().pid();
            assertThat(run.lines()).as(run.toString())
                .first().asString().startsWith("rdma-reactive stat: " + directory + ", ")
                .endsWith(", 1 counters file");
            assertThat(run.lines()).as(run.toString())
                .anyMatch(line -> line.matches("shm-" + pid + "-[0-9]+  process " + pid + ", running  \\("
                    + Pattern.quote(directory.toString()) + "/shm-" + pid + "-[0-9]+\\.counters\\)"));
            // the client's runtime and the server's are one (same provider, directory and idle strategy): it
            // sent the messages and their echoes, and received both
            assertThat(counter(run, "messages sent")).isGreaterThanOrEqualTo(2 * MESSAGES);
            assertThat(counter(run, "messages received")).isGreaterThanOrEqualTo(2 * MESSAGES);
            assertThat(counter(run, "bytes sent")).isGreaterThanOrEqualTo(2 * MESSAGES * 100);
            assertThat(counter(run, "errors")).isZero();
            assertThat(run.lines()).as(run.toString()).anyMatch(line -> line.matches(" +[0-9,]+  credit stalls"))
                .anyMatch(line -> line.matches(" +[0-9,]+  back-pressure events"))
                .anyMatch(line -> line.matches(" +[0-9,]+  loop stalls"));

            final String file;
            try (Stream<Path> files = Files.list(directory)) {
                file = files.filter(path -> path.toString().endsWith(".counters")).findFirst().orElseThrow()
                    .toString();
            }
            final CliRun oneFile = CliRun.of("stat", "--once", file);
            assertThat(oneFile.status()).as(oneFile.toString()).isZero();
            assertThat(counter(oneFile, "messages sent")).isGreaterThanOrEqualTo(2 * MESSAGES);

            connection.dispose();
            connection.onDispose().block(Duration.ofSeconds(10));
        } finally {
            server.dispose();
            server.onDispose().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void watchingPrintsOneSnapshotPerInterval(@ShmTestDirectory final Path directory) throws Exception {
        final DisposableServer server = echoServer(directory);
        try {
            final CliRun run = CliRun.of("stat", "--watch", "--interval=50ms", "--count=3",
                directory.toString());

            assertThat(run.status()).as(run.toString()).isZero();
            assertThat(run.lines()).as(run.toString())
                .filteredOn(line -> line.startsWith("rdma-reactive stat: ")).hasSize(3);
            assertThat(run.lines()).as(run.toString())
                .filteredOn(line -> line.endsWith("messages sent")).hasSize(3);
        } finally {
            server.dispose();
            server.onDispose().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void anEmptyDirectoryHasNoRuntime(@ShmTestDirectory final Path directory) throws Exception {
        final CliRun run = CliRun.of("stat", "--once", directory.toString());

        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.lines()).as(run.toString()).contains("  no runtime has its counters here");
    }

    @Test
    void aMissingDirectoryIsNamed() {
        final CliRun run = CliRun.of("stat", "--once", "/tmp/no-such-rdma-reactive-directory");

        assertThat(run.status()).as(run.toString()).isEqualTo(1);
        assertThat(run.out()).as(run.toString()).contains("/tmp/no-such-rdma-reactive-directory does not exist");
    }

    @Test
    void aFileThatIsNotACountersFileIsSaidSo(@ShmTestDirectory final Path directory) throws Exception {
        final Path file = Files.writeString(directory.resolve("x.counters"), "not counters");
        final CliRun run = CliRun.of("stat", "--once", file.toString());

        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.out()).as(run.toString()).contains("x  cannot read " + file);
    }

    @Test
    void wrongOptionsAreUsageErrors() {
        assertThat(CliRun.of("stat", "--once", "--watch").status()).isEqualTo(2);
        assertThat(CliRun.of("stat", "--interval=fast").err()).contains("'fast' is not a time such as 500ms");
        assertThat(CliRun.of("stat", "--count=0").status()).isEqualTo(2);
    }

    @Test
    void theDefaultDirectoryIsTheRuntimesDefault() {
        final String user = System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_");
        assertThat(StatCommand.defaultDirectory().getFileName().toString()).isEqualTo("rdma-reactive-" + user);
    }

    private static DisposableServer echoServer(final Path directory) {
        return RdmaServer.create().provider("shm").directory(directory).address("stat-echo")
            .handle((in, out) -> out.send(in.receive(Codecs.BYTE_ARRAY), Codecs.BYTE_ARRAY))
            .bind().block(Duration.ofSeconds(20));
    }

    /** @return the value of the counter with this label, as stat printed it */
    private static long counter(final CliRun run, final String label) {
        for (final String line : run.lines()) {
            final Matcher matcher = COUNTER.matcher(line);
            if (matcher.matches() && matcher.group(2).equals(label)) {
                return Long.parseLong(matcher.group(1).replace(",", ""));
            }
        }
        throw new AssertionError("no counter '" + label + "' in " + run);
    }
}
