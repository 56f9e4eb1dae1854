package io.rdmareactive.micronaut.internal;

import io.micronaut.context.BeanContext;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.inject.qualifiers.Qualifiers;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.micronaut.config.RdmaClientConfiguration;
import io.rdmareactive.micronaut.config.RdmaConfiguration;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The application's client connections by name ({@code rdma.clients.<name>}): every configured one starts
 * connecting at startup, after the application's own servers are bound; they drain and close at shutdown before the
 * servers close.
 */
@Singleton
public class RdmaClientConnections {

    private final BeanContext beans;
    private final RdmaConfiguration rdma;
    private final CodecRegistry codecs;
    private final Map<String, ReconnectingConnection> connections = new LinkedHashMap<>();
    private boolean started;

    public RdmaClientConnections(final BeanContext beans, final RdmaConfiguration rdma, final CodecRegistry codecs) {
        this.beans = beans;
        this.rdma = rdma;
        this.codecs = codecs;
    }

    /** Creates a connection for every {@code rdma.clients.<name>} configured, and starts every connection. */
    synchronized void startAll() {
        for (final RdmaClientConfiguration config : beans.getBeansOfType(RdmaClientConfiguration.class)) {
            connection(config.getName());
        }
        started = true;
        for (final ReconnectingConnection connection : connections.values()) {
            connection.start(); // idempotent
        }
    }

    /**
     * @param name a client's name
     * @return its connection, created (and started, if startup is over) on first use
     * @throws ConfigurationException if {@code rdma.clients.<name>.address} is not configured
     */
    public synchronized ReconnectingConnection connection(final String name) {
        ReconnectingConnection connection = connections.get(name);
        if (connection == null) {
            final RdmaClientConfiguration config = beans.findBean(RdmaClientConfiguration.class,
                Qualifiers.byName(name)).orElseThrow(() -> new ConfigurationException("rdma.clients." + name
                    + ".address is not set, but an @RdmaClient(\"" + name + "\") is used"));
            connection = new ReconnectingConnection(config, client(config));
            connections.put(name, connection);
            if (started) {
                connection.start();
            }
        }
        return connection;
    }

    /** @return the connections created so far */
    public synchronized List<ReconnectingConnection> all() {
        return List.copyOf(connections.values());
    }

    private RdmaClient client(final RdmaClientConfiguration config) {
        RdmaClient client = RdmaClient.create()
            .provider(config.getProvider().orElse(rdma.getProvider()))
            .address(config.requireAddress())
            .rings(config.getStreams(), config.getRingCapacity())
            .maxMessageLength(config.getMaxMessageLength())
            .liveness(config.getKeepalive(), config.getLivenessTimeout())
            .prefetch(config.getPrefetch())
            .idleStrategy(config.getIdleStrategy().orElse(rdma.getIdleStrategy()))
            .requestTimeout(config.getRequestTimeout())
            .connectTimeout(config.getConnectTimeout())
            .codecs(codecs);
        final var directory = config.getDirectory().or(rdma::getDirectory);
        if (directory.isPresent()) {
            client = client.directory(directory.get());
        }
        if (config.getSecret().isPresent()) {
            client = client.secret(config.getSecret().get());
        }
        if (config.isWiretap()) {
            final var category = config.getWiretapCategory();
            client = category.isPresent() ? client.wiretap(category.get()) : client.wiretap(true);
        }
        return client;
    }

    /** Drains and closes every connection. */
    synchronized void closeAll(final Duration drainTimeout) {
        for (final ReconnectingConnection connection : connections.values()) {
            connection.drainAndClose(drainTimeout);
        }
        connections.clear();
    }
}
