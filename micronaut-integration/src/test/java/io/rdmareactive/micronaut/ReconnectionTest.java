package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.annotation.Requires;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.rdmareactive.micronaut.internal.RdmaClientConnections;
import io.rdmareactive.micronaut.internal.ReconnectingConnection;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** The listener's application stops and starts again; the client's application reconnects by itself. */
@MicronautTest
class ReconnectionTest extends TwoContextsTest {

    private static final String SPEC = "ReconnectionTest";

    ReconnectionTest() {
        super(SPEC);
    }

    @Inject
    Echo echo;

    @Inject
    RdmaClientConnections connections;

    @Test
    void aClientReconnectsWhenTheServerComesBackAndCallsWaitForIt() {
        StepVerifier.create(echo.echo("before")).expectNext("before").verifyComplete();
        final ReconnectingConnection connection = connections.connection("default");
        assertThat(connection.connections()).isEqualTo(1);

        sides.stopServer();
        await().atMost(Duration.ofSeconds(30)).until(() -> connection.connected().isEmpty());

        // a call made while the server is away waits for the new connection (connect-timeout, 10 s by default)
        final Mono<String> during = echo.echo("while away").cache();
        during.subscribe(ignored -> { }, ignored -> { });
        sides.startServer();

        StepVerifier.create(during).expectNext("while away").verifyComplete();
        StepVerifier.create(echo.echo("after")).expectNext("after").verifyComplete();
        assertThat(connection.connections()).as("connections made, the first one included").isEqualTo(2);
    }

    @RdmaClient
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "client")
    interface Echo {
        @RdmaChannel("echo")
        Mono<String> echo(String text);
    }

    @RdmaListener
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class EchoListener {
        @RdmaChannel("echo")
        String echo(final String text) {
            return text;
        }
    }
}
