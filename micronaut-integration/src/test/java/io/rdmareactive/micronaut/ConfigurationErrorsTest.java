package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Wrong configuration stops the application at startup with a message that names the key. */
class ConfigurationErrorsTest {

    private static final String SPEC = "ConfigurationErrorsTest";

    @Test
    void anUnknownProviderIsNamed() {
        assertStartupFails(Map.of("rdma.provider", "foo", "rdma.clients.default.address", "x"),
            "rdma.provider must be one of auto, verbs, shm; it is 'foo'");
    }

    @Test
    void aNegativeRingSizeIsNamed() {
        assertStartupFails(Map.of("rdma.clients.pricing.address", "x", "rdma.clients.pricing.ring-capacity", "-1"),
            "rdma.clients.pricing.ring-capacity must be a power of two of at least 1024; it is -1");
    }

    @Test
    void aWrongIdleStrategyIsNamed() {
        assertStartupFails(Map.of("rdma.servers.default.address", "x", "rdma.servers.default.idle-strategy", "nap",
            "spec.side", "server"), "rdma.servers.default.idle-strategy is not an idle strategy");
    }

    @Test
    void aSecretThatIsNotBase64OrTooShortIsNamedWithoutItsValue() {
        assertStartupFails(Map.of("rdma.clients.default.address", "x", "rdma.clients.default.secret", "not base64!"),
            "rdma.clients.default.secret must be base64");
        assertStartupFails(Map.of("rdma.servers.default.address", "x", "rdma.servers.default.secret", "c2hvcnQ=",
            "spec.side", "server"), "rdma.servers.default.secret decodes to 5 bytes: too short");
    }

    @Test
    void aWiretapThatIsNeitherTrueNorFalseOrABlankCategoryIsNamed() {
        assertStartupFails(Map.of("rdma.servers.default.address", "x", "rdma.servers.default.wiretap", "maybe",
            "spec.side", "server"), "rdma.servers.default.wiretap must be true or false; it is 'maybe'");
        assertStartupFails(Map.of("rdma.clients.default.address", "x", "rdma.clients.default.wiretap", "yes"),
            "rdma.clients.default.wiretap must be true or false; it is 'yes'");
        assertStartupFails(Map.of("rdma.clients.default.address", "x", "rdma.clients.default.wiretap-category", " "),
            "rdma.clients.default.wiretap-category must name a logger, e.g. wire.orders; it is ' '");
    }

    @Test
    void aServerLimitBelowOneIsNamed() {
        assertStartupFails(Map.of("rdma.servers.default.address", "x", "rdma.servers.default.max-pending-handshakes",
            "0", "spec.side", "server"), "rdma.servers.default.max-pending-handshakes must be at least 1; it is 0");
    }

    @Test
    void aListenerWithoutAServerAddressIsNamed() {
        assertStartupFails(Map.of("spec.side", "server"), "rdma.servers.default.address is not set");
    }

    @Test
    void aClientInterfaceWithoutItsConfigurationIsNamed() {
        assertStartupFails(Map.of("spec.side", "client"),
            "rdma.clients.missing.address is not set, but an @RdmaClient(\"missing\") is used");
    }

    @Test
    void rdmaEnabledFalseStartsNothing() {
        final Map<String, Object> properties = new HashMap<>(Map.of("spec.name", SPEC, "spec.side", "server",
            "rdma.enabled", "false"));
        try (ApplicationContext context = ApplicationContext.run(properties)) {
            assertThat(context.containsBean(io.rdmareactive.micronaut.internal.RdmaLifecycle.class)).isFalse();
        }
    }

    private static void assertStartupFails(final Map<String, String> settings, final String message) {
        final Map<String, Object> properties = new HashMap<>(settings);
        properties.put("spec.name", SPEC);
        properties.putIfAbsent("rdma.provider", "shm");
        properties.put("rdma.directory", "/tmp");
        assertThatThrownBy(() -> ApplicationContext.run(properties).close())
            .satisfies(error -> assertThat(chain(error)).contains(message));
    }

    private static String chain(final Throwable error) {
        final StringBuilder messages = new StringBuilder();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            messages.append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }

    @RdmaClient("missing")
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "client")
    interface Unconfigured {
        @RdmaChannel("any")
        Mono<Void> any(String text);
    }

    @RdmaListener
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class Listener {
        @RdmaChannel("any")
        Mono<Void> any(final String text) {
            return Mono.empty();
        }
    }
}
