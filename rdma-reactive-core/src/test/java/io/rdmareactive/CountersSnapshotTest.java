package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/** The counters snapshots that servers and connections give (what the Micronaut meters read). */
class CountersSnapshotTest {

    @Test
    void aServerAndAClientCountWhatTheyExchangedAndAClosedOneReportsClosed(@ShmTestDirectory final Path directory) {
        final DisposableServer server = RdmaServer.create().provider("shm").directory(directory).address("count")
            .handle((in, out) -> in.receive(Codecs.UTF8_STRING).then())
            .bind().block(Duration.ofSeconds(10));
        final Connection connection = RdmaClient.create().provider("shm").directory(directory).address("count")
            .connect().block(Duration.ofSeconds(10));
        connection.outbound().send(Flux.range(0, 100).map(i -> "m" + i), Codecs.UTF8_STRING)
            .block(Duration.ofSeconds(30));
        connection.dispose();
        connection.onDispose().onErrorComplete().block(Duration.ofSeconds(30));

        assertThat(server.counters().messagesReceived()).as("messages the server received").isEqualTo(100);
        assertThat(server.counters().bytesReceived()).isGreaterThan(100);
        server.dispose();
        server.onDispose().block(Duration.ofSeconds(30));
        assertThat(server.counters()).isEqualTo(RdmaCounters.CLOSED);
        assertThat(connection.counters()).isEqualTo(RdmaCounters.CLOSED);
    }
}
