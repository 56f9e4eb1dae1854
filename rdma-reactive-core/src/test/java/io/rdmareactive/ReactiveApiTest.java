package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

class ReactiveApiTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void anEchoServerReturnsEveryMessageInOrder() {
        final DisposableServer server = RdmaServer.create().provider("shm").directory(directory).address("echo")
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase), Codecs.UTF8_STRING))
            .bind().block(Duration.ofSeconds(10));
        try {
            final Connection connection = RdmaClient.create().provider("shm").directory(directory).address("echo")
                .connect().block(Duration.ofSeconds(10));
            final List<String> sent = Flux.range(0, 10_000).map(i -> "message " + i + " é").collectList().block();
            StepVerifier.create(connection.inbound().receive(Codecs.UTF8_STRING)
                    .doOnSubscribe(s -> connection.outbound().send(Flux.fromIterable(sent), Codecs.UTF8_STRING)
                        .subscribe()))
                .expectNextSequence(sent.stream().map(String::toUpperCase).toList())
                .expectComplete()
                .verify(Duration.ofSeconds(60));
            connection.dispose();
            StepVerifier.create(connection.onDispose()).verifyComplete();
        } finally {
            server.dispose();
        }
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files.toList()).as("files left after the server and client are disposed").isEmpty();
        } catch (final IOException ex) {
            throw new AssertionError(ex);
        }
    }
}
