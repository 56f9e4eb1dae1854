package io.rdmareactive.micronaut.health;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.util.StringUtils;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.endpoint.health.HealthEndpoint;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.rdmareactive.micronaut.internal.RdmaClientConnections;
import io.rdmareactive.micronaut.internal.RdmaServers;
import io.rdmareactive.micronaut.internal.ReconnectingConnection;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * {@code rdma} in the health endpoint ({@code endpoints.health.rdma.enabled}, default true; only with
 * micronaut-management): UP when every server listens and every client is connected, DOWN otherwise (a client that
 * is reconnecting is DOWN until it is back). Details name each server's address and channels, and each client's
 * peer, connections made so far and calls in flight.
 */
@Singleton
@Requires(classes = HealthIndicator.class)
@Requires(beans = HealthEndpoint.class)
@Requires(property = "endpoints.health.rdma.enabled", notEquals = StringUtils.FALSE, defaultValue = StringUtils.TRUE)
@Requires(property = "rdma.enabled", notEquals = StringUtils.FALSE, defaultValue = StringUtils.TRUE)
public class RdmaHealthIndicator implements HealthIndicator {

    private final RdmaServers servers;
    private final RdmaClientConnections clients;

    public RdmaHealthIndicator(final RdmaServers servers, final RdmaClientConnections clients) {
        this.servers = servers;
        this.clients = clients;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        boolean up = true;
        final Map<String, Object> details = new LinkedHashMap<>();
        final Map<String, Object> serverDetails = new LinkedHashMap<>();
        for (final Map.Entry<String, RdmaServers.Bound> entry : servers.bound().entrySet()) {
            final boolean listening = !entry.getValue().server().isDisposed();
            up &= listening;
            serverDetails.put(entry.getKey(), Map.of("address", entry.getValue().server().address(),
                "status", listening ? "listening" : "closed"));
        }
        final Map<String, Object> clientDetails = new LinkedHashMap<>();
        for (final ReconnectingConnection client : clients.all()) {
            final var connection = client.connected();
            up &= connection.isPresent();
            final Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("status", connection.isPresent() ? "connected" : "connecting");
            connection.ifPresent(c -> detail.put("peer", c.peer()));
            detail.put("connections", client.connections());
            detail.put("inFlight", client.inFlight());
            clientDetails.put(client.name(), detail);
        }
        details.put("servers", serverDetails);
        details.put("clients", clientDetails);
        return Mono.just(HealthResult.builder("rdma", up ? HealthStatus.UP : HealthStatus.DOWN).details(details).build());
    }
}
