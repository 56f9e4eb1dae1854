package io.rdmareactive.micronaut.internal;

import io.micronaut.context.BeanContext;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.inject.qualifiers.Qualifiers;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.micronaut.config.RdmaConfiguration;
import io.rdmareactive.micronaut.config.RdmaServerConfiguration;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The servers the listeners need, one per server name: bound at startup, closed at shutdown once the streams they
 * serve have ended (or the drain timeout passed).
 */
@Singleton
public class RdmaServers {

    private static final Logger LOG = Loggers.getLogger(RdmaServers.class);

    private final BeanContext beans;
    private final RdmaConfiguration rdma;
    private final ListenerRoutes routes;
    private final CodecRegistry codecs;
    private final Map<String, Bound> bound = new LinkedHashMap<>();

    /** A bound server and its router. */
    public record Bound(RdmaServerConfiguration configuration, DisposableServer server, StreamRouter router) {
    }

    public RdmaServers(final BeanContext beans, final RdmaConfiguration rdma, final ListenerRoutes routes,
                       final CodecRegistry codecs) {
        this.beans = beans;
        this.rdma = rdma;
        this.routes = routes;
        this.codecs = codecs;
    }

    /** Binds a server for every server name the listeners use. */
    synchronized void bindAll() {
        for (final String name : routes.servers()) {
            if (bound.containsKey(name)) {
                continue;
            }
            final RdmaServerConfiguration config = beans.findBean(RdmaServerConfiguration.class, Qualifiers.byName(name))
                .orElseThrow(() -> new ConfigurationException("rdma.servers." + name + ".address is not set, but "
                    + "@RdmaListener(server = \"" + name + "\") beans serve " + routes.channels(name)));
            final String address = config.requireAddress();
            final StreamRouter router = new StreamRouter(name, address, routes.routes(name));
            RdmaServer server = RdmaServer.create()
                .provider(config.getProvider().orElse(rdma.getProvider()))
                .address(address)
                .rings(config.getStreams(), config.getRingCapacity())
                .maxMessageLength(config.getMaxMessageLength())
                .liveness(config.getKeepalive(), config.getLivenessTimeout())
                .prefetch(config.getPrefetch())
                .idleStrategy(config.getIdleStrategy().orElse(rdma.getIdleStrategy()))
                .maxConnections(config.getMaxConnections())
                .maxPendingHandshakes(config.getMaxPendingHandshakes())
                .codecs(codecs)
                .handleStreams(router);
            if (config.getSecret().isPresent()) {
                server = server.secret(config.getSecret().get());
            }
            final var directory = config.getDirectory().or(rdma::getDirectory);
            if (directory.isPresent()) {
                server = server.directory(directory.get());
            }
            if (config.isWiretap()) {
                final var category = config.getWiretapCategory();
                server = category.isPresent() ? server.wiretap(category.get()) : server.wiretap(true);
            }
            final DisposableServer disposable;
            try {
                disposable = server.bindNow();
            } catch (final RuntimeException ex) {
                throw new ConfigurationException("the RDMA server " + config.key("address") + " = " + address
                    + " cannot listen: " + ex.getMessage(), ex);
            }
            bound.put(name, new Bound(config, disposable, router));
            LOG.info("RDMA server '{}' listening at {} for channels {}", name, address, routes.channels(name));
        }
    }

    /** @return the bound servers by name */
    public synchronized Map<String, Bound> bound() {
        return Map.copyOf(bound);
    }

    /** Waits (at most the drain timeout) for the streams being served to end, then closes every server. */
    synchronized void closeAll(final Duration drainTimeout) {
        final Instant deadline = Instant.now().plus(drainTimeout);
        for (final Bound server : bound.values()) {
            while (server.router().active() > 0 && Instant.now().isBefore(deadline)) {
                sleepBriefly();
            }
            if (server.router().active() > 0) {
                LOG.warn("RDMA server '{}' closes with {} streams still being served (rdma.drain-timeout {})",
                    server.configuration().getName(), server.router().active(), drainTimeout);
            }
            server.server().dispose();
            server.server().onDispose().block(drainTimeout);
        }
        bound.clear();
    }

    static void sleepBriefly() {
        try {
            Thread.sleep(5);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", ex);
        }
    }
}
