package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * {@code rdma.servers.<name>.secret} and {@code rdma.clients.<name>.secret}: services with the same secret (base64,
 * as an environment variable would carry it) talk; a client with another one is refused, and its calls fail saying so.
 */
class AuthenticatedServicesTest {

    private static final String SPEC = "AuthenticatedServicesTest";
    private static final String SECRET = Base64.getEncoder().encodeToString(
        "thirty-two bytes of shared secret".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    private static final String OTHER = Base64.getEncoder().encodeToString(
        "another thirty-two bytes, wrong!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    private final TwoSides sides = new TwoSides(SPEC);
    private ApplicationContext server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        sides.close();
    }

    private void startServer() {
        final Map<String, Object> properties = sides.common();
        properties.put("spec.side", "server");
        properties.put("rdma.servers.default.address", SPEC);
        properties.put("rdma.servers.default.secret", SECRET);
        properties.put("rdma.servers.default.max-connections", "4");
        properties.put("rdma.servers.default.max-pending-handshakes", "2");
        server = ApplicationContext.run(properties);
    }

    private ApplicationContext client(final String secret) {
        final Map<String, Object> properties = new HashMap<>(sides.clientProperties());
        properties.put("rdma.clients.default.secret", secret);
        properties.put("rdma.clients.default.connect-timeout", "3s");
        return ApplicationContext.run(properties);
    }

    @Test
    void servicesWithTheSameSecretTalk() {
        startServer();
        try (ApplicationContext client = client(SECRET)) {
            assertThat(client.getBean(Echo.class).echo("with the secret").block(Duration.ofSeconds(30)))
                .isEqualTo("with the secret");
        }
    }

    @Test
    void aClientWithAnotherSecretIsRefusedAndItsCallsSaySo() {
        startServer();
        try (ApplicationContext client = client(OTHER)) {
            assertThatThrownBy(() -> client.getBean(Echo.class).echo("without").block(Duration.ofSeconds(30)))
                .satisfies(error -> assertThat(chain(error)).contains("authentication failed"));
        }
    }

    private static String chain(final Throwable error) {
        final StringBuilder messages = new StringBuilder();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            messages.append(cause).append('\n');
        }
        return messages.toString();
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
