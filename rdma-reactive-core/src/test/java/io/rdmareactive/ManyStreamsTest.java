package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * A connection with 514 streams of 4 KiB (the getting-started page's example): 256 calls at once, one on every request
 * stream of the client, each answered right. The streams outnumber the look-flag's 64 bits, so streams that share a
 * bit (s, s + 64, ...) publish together.
 */
class ManyStreamsTest {

    private static final int STREAMS = 514;

    @ShmTestDirectory
    private Path directory;
    private DisposableServer server;
    private Connection connection;
    private final java.util.concurrent.atomic.AtomicInteger arrived = new java.util.concurrent.atomic.AtomicInteger();
    private final reactor.core.publisher.Sinks.Empty<Void> allOpen = reactor.core.publisher.Sinks.empty();

    @BeforeEach
    void start() {
        final String address = ShmTestSupport.uniqueAddress("many");
        // no answer leaves before 256 requests are open at once: fewer streams, or a connection that held calls back,
        // would never get there
        server = ShmTestSupport.server(directory, address).rings(STREAMS, 4096)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next().flatMap(request -> {
                if (arrived.incrementAndGet() == 256) {
                    allOpen.tryEmitEmpty();
                }
                return allOpen.asMono().thenReturn(request.toUpperCase());
            }), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        connection = ShmTestSupport.client(directory, address).rings(STREAMS, 4096).connect()
            .block(ShmTestSupport.BOUND);
    }

    @AfterEach
    void stop() {
        connection.dispose();
        connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        server.dispose();
    }

    @Test
    void twoHundredFiftySixCallsAreOnTheWireAtOnceAndEachIsAnswered() {
        final int clientStreams = (STREAMS - 2) / 2; // 256: the odd streams 3..513 (stream 1 is the connection's own)
        assertThat(clientStreams).isEqualTo(256);
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
