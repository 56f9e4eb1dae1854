package io.rdmareactive.micronaut;

import io.micronaut.context.ApplicationContext;
import io.rdmareactive.testsupport.ShmTestDirectories;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A listener side and a client side of one test, in two application contexts over the shm provider, in a private
 * directory under /tmp (short, for the provider's socket paths). The client side is the test's own
 * {@code @MicronautTest} context, configured by {@link #clientProperties()}; the server side is started here.
 * Beans of a test carry {@code @Requires(property = "spec.name", value = ...)} and, for the server side,
 * {@code @Requires(property = "spec.side", value = "server")}.
 */
final class TwoSides implements AutoCloseable {

    final String spec;
    final Path directory;
    private ApplicationContext server;

    TwoSides(final String spec) {
        this.spec = spec;
        directory = ShmTestDirectories.create();
    }

    Map<String, Object> common() {
        final Map<String, Object> properties = new HashMap<>();
        properties.put("spec.name", spec);
        properties.put("rdma.provider", "shm");
        properties.put("rdma.directory", directory.toString());
        properties.put("rdma.idle-strategy", "backoff");
        properties.put("rdma.drain-timeout", "5s");
        return properties;
    }

    Map<String, String> clientProperties() {
        final Map<String, String> properties = new HashMap<>();
        common().forEach((key, value) -> properties.put(key, value.toString()));
        properties.put("spec.side", "client");
        properties.put("rdma.clients.default.address", spec);
        properties.put("rdma.clients.default.reconnect-min-backoff", "20ms");
        properties.put("rdma.clients.default.reconnect-max-backoff", "200ms");
        properties.put("rdma.clients.default.request-timeout", "30s");
        return properties;
    }

    /** Starts (or restarts) the listener side. */
    ApplicationContext startServer() {
        return startServer(Map.of());
    }

    /** Starts (or restarts) the listener side with properties of the test's besides the common ones. */
    ApplicationContext startServer(final Map<String, Object> extra) {
        final Map<String, Object> properties = common();
        properties.put("spec.side", "server");
        properties.put("rdma.servers.default.address", spec);
        properties.putAll(extra);
        server = ApplicationContext.run(properties);
        return server;
    }

    ApplicationContext server() {
        return server;
    }

    void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Override
    public void close() {
        stopServer();
        ShmTestDirectories.delete(directory);
    }
}
