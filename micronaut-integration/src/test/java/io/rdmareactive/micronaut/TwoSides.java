package io.rdmareactive.micronaut;

import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

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
        try {
            directory = Files.createTempDirectory(Path.of("/tmp"), "rrm");
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
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
        // the library may still be removing files of its own (a loop closing a connection): walk again if one vanishes
        for (int attempt = 1; ; attempt++) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                return;
            } catch (final IOException ex) {
                throw new UncheckedIOException(ex);
            } catch (final UncheckedIOException ex) {
                if (attempt == 5 || !(ex.getCause() instanceof java.nio.file.NoSuchFileException)) {
                    throw ex;
                }
            }
        }
    }
}
