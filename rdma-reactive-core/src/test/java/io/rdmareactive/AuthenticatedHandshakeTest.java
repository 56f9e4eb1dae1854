package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * The authenticated handshake through the API ({@code RdmaServer.secret} / {@code RdmaClient.secret}): peers with the
 * same secret use every interaction model; a client with another secret is refused, saying authentication failed,
 * and the server keeps serving. Runs on shm; {@link VerbsAuthenticatedHandshakeTest} runs it on verbs.
 */
@ExtendWith(TestTransportResolver.class)
class AuthenticatedHandshakeTest {

    /** The transport this class runs on: shared memory, or verbs in a subclass that is {@link OnVerbs}. */
    private final TestTransport transport;

    static final byte[] SECRET = "a shared secret of 32 bytes ....".getBytes(StandardCharsets.US_ASCII);
    static final byte[] OTHER = "another secret, also 32 bytes...".getBytes(StandardCharsets.US_ASCII);

    @ShmTestDirectory
    private Path directory;
    private String address;
    private DisposableServer server;
    private final ConcurrentLinkedQueue<String> fired = new ConcurrentLinkedQueue<>();

    AuthenticatedHandshakeTest(final TestTransport transport) {
        this.transport = transport;
    }

    @BeforeEach
    void start() {
        address = transport.uniqueAddress("auth");
        server = transport.server(directory, address).secret(SECRET)
            .handleStreams((kind, in, out) -> switch (kind) {
                case FIRE_AND_FORGET -> in.receive(Codecs.UTF8_STRING).doOnNext(fired::add).then();
                case REQUEST_RESPONSE -> out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase),
                    Codecs.UTF8_STRING);
                case REQUEST_STREAM -> out.send(in.receive(Codecs.UTF8_STRING).next()
                    .flatMapMany(request -> Flux.range(1, Integer.parseInt(request)).map(i -> "item " + i)),
                    Codecs.UTF8_STRING);
                case CHANNEL -> out.send(in.receive(Codecs.UTF8_STRING).map(s -> s + "!"), Codecs.UTF8_STRING);
            })
            .bind().block(ShmTestSupport.BOUND);
    }

    @AfterEach
    void stop() {
        server.dispose();
    }

    private Connection connect(final byte[] secret) {
        return transport.client(directory, address).secret(secret).connect().block(ShmTestSupport.BOUND);
    }

    private static void close(final Connection connection) {
        connection.dispose();
        connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
    }

    @Test
    void peersWithTheSameSecretUseEveryInteractionModel() {
        final Connection connection = connect(SECRET);
        try {
            for (int i = 0; i < 50; i++) {
                assertThat(connection.requestResponse("request " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("REQUEST " + i);
            }
            StepVerifier.create(connection.requestStream("500", Codecs.UTF8_STRING, Codecs.UTF8_STRING), 10)
                .expectNextCount(10)
                .thenRequest(490)
                .expectNextCount(489)
                .expectNext("item 500")
                .verifyComplete();
            final List<String> answers = connection.requestChannel(Flux.range(0, 1000).map(i -> "m" + i),
                Codecs.UTF8_STRING, Codecs.UTF8_STRING).collectList().block(ShmTestSupport.BOUND);
            assertThat(answers).hasSize(1000).startsWith("m0!", "m1!").endsWith("m999!");
            for (int i = 0; i < 20; i++) {
                connection.fireAndForget("event " + i, Codecs.UTF8_STRING).block(ShmTestSupport.BOUND);
            }
            Awaitility.await().atMost(ShmTestSupport.BOUND).until(() -> fired.size() == 20);
            assertThat(fired).containsExactlyInAnyOrderElementsOf(Flux.range(0, 20).map(i -> "event " + i)
                .collectList().block());
        } finally {
            close(connection);
        }
    }

    @Test
    void aClientWithAnotherSecretIsRefusedAndTheServerKeepsServing() {
        assertThatThrownBy(() -> connect(OTHER))
            .isInstanceOf(RdmaConnectionException.class)
            .hasMessageContaining("authentication failed")
            .hasMessageContaining("the proof does not match (a wrong secret");
        final Connection good = connect(SECRET);
        try {
            assertThat(good.requestResponse("still here", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("STILL HERE");
        } finally {
            close(good);
        }
    }
}
