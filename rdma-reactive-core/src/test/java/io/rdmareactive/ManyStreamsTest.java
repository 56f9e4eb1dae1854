package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * A connection with more streams than the look-flag has bits (150 streams, 64 bits): calls on every stream at once,
 * so that streams sharing a bit (s, s + 64, s + 128) publish together, and each answer still arrives, right.
 */
class ManyStreamsTest {

    private static final int STREAMS = 150;

    private Path directory;
    private DisposableServer server;
    private Connection connection;

    @BeforeEach
    void start() {
        directory = ShmTestSupport.newDirectory();
        final String address = ShmTestSupport.uniqueAddress("many");
        server = ShmTestSupport.server(directory, address).rings(STREAMS, 4096)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase),
                Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        connection = ShmTestSupport.client(directory, address).rings(STREAMS, 4096).connect()
            .block(ShmTestSupport.BOUND);
    }

    @AfterEach
    void stop() {
        connection.dispose();
        connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        server.dispose();
        ShmTestSupport.deleteDirectory(directory);
    }

    @Test
    void callsOnEveryStreamAtOnceAreEachAnswered() {
        final int clientStreams = (STREAMS - 1) / 2; // the odd streams 1..149 (stream 1 is the connection's own)
        final List<String> answers = Flux.range(0, 3_000)
            .flatMapSequential(i -> connection.requestResponse("call " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING),
                clientStreams)
            .collectList().block(ShmTestSupport.BOUND);
        assertThat(answers).hasSize(3_000);
        for (int i = 0; i < answers.size(); i++) {
            assertThat(answers.get(i)).isEqualTo("CALL " + i);
        }
    }
}
