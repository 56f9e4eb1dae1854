package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * {@code rdma.servers.<name>.wiretap} and {@code rdma.clients.<name>.wiretap} (with {@code wiretap-category}) reach
 * the core builders: every frame is a DEBUG line of the wiretap's logger on the side that has it on; without the keys,
 * no line.
 */
class WiretapTest {

    private static final String SPEC = "WiretapTest";
    private static final String SERVER_CATEGORY = "io.rdmareactive.RdmaServer";
    private static final String CLIENT_DEFAULT_CATEGORY = "io.rdmareactive.RdmaClient";
    private static final String CLIENT_CATEGORY = "wire.orders";
    private static final Duration BOUND = Duration.ofSeconds(30);

    private TwoSides sides;

    @BeforeEach
    void createSides() {
        sides = new TwoSides(SPEC);
    }

    @AfterEach
    void stop() {
        sides.close();
    }

    private ApplicationContext client(final Map<String, String> extra) {
        final Map<String, Object> properties = new HashMap<>(sides.clientProperties());
        properties.putAll(extra);
        return ApplicationContext.run(properties);
    }

    @Test
    void aServerAndAClientWithTheWiretapOnLogEachFrameUnderTheirCategories() {
        final String text = "tapped";
        final String requestHex = HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
        try (CapturedWiretap logs = CapturedWiretap.open(SERVER_CATEGORY, CLIENT_DEFAULT_CATEGORY, CLIENT_CATEGORY)) {
            sides.startServer(Map.of("rdma.servers.default.wiretap", "true"));
            try (ApplicationContext client = client(Map.of("rdma.clients.default.wiretap", "true",
                "rdma.clients.default.wiretap-category", CLIENT_CATEGORY))) {
                assertThat(client.getBean(Echo.class).echo(text).block(BOUND)).isEqualTo(text);
                await().atMost(BOUND).untilAsserted(() -> {
                    assertThat(lines(logs, SERVER_CATEGORY, "RECEIVED")).anySatisfy(line ->
                        assertThat(line).startsWith("[server ").contains(" DATA ").contains(requestHex));
                    assertThat(lines(logs, SERVER_CATEGORY, "SENT")).anySatisfy(line ->
                        assertThat(line).startsWith("[server ").contains(" DATA ").contains(requestHex));
                    assertThat(lines(logs, CLIENT_CATEGORY, "SENT")).anySatisfy(line ->
                        assertThat(line).startsWith("[client ").contains(" OPEN "));
                    assertThat(lines(logs, CLIENT_CATEGORY, "RECEIVED")).anySatisfy(line ->
                        assertThat(line).startsWith("[client ").contains(" DATA ").contains(requestHex));
                });
            }
            assertThat(logs.of(SERVER_CATEGORY)).extracting(CapturedWiretap.Line::level).containsOnly("DEBUG");
            assertThat(logs.of(CLIENT_CATEGORY)).extracting(CapturedWiretap.Line::level).containsOnly("DEBUG");
            assertThat(logs.of(CLIENT_DEFAULT_CATEGORY)).as("the client's lines, under its own category only")
                .isEmpty();
        }
    }

    @Test
    void withoutTheKeysNoFrameIsLogged() {
        try (CapturedWiretap logs = CapturedWiretap.open(SERVER_CATEGORY, CLIENT_DEFAULT_CATEGORY)) {
            sides.startServer();
            try (ApplicationContext client = client(Map.of())) {
                assertThat(client.getBean(Echo.class).echo("quiet").block(BOUND)).isEqualTo("quiet");
            }
            sides.stopServer();
            assertThat(logs.of(SERVER_CATEGORY)).isEmpty();
            assertThat(logs.of(CLIENT_DEFAULT_CATEGORY)).isEmpty();
        }
    }

    private static List<String> lines(final CapturedWiretap logs, final String category, final String direction) {
        return logs.of(category).stream().map(CapturedWiretap.Line::message)
            .filter(message -> message.contains("] " + direction + " ")).toList();
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
