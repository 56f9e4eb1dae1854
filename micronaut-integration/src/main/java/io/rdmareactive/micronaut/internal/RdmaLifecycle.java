package io.rdmareactive.micronaut.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.core.util.StringUtils;
import io.rdmareactive.micronaut.config.RdmaConfiguration;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

/**
 * Starts and stops RDMA in the order that loses nothing: at startup the servers bind (so that listeners are ready)
 * before the clients connect; at shutdown the clients drain (no new calls, those in flight finish) and close, and
 * only then do the servers drain (the streams they serve end) and close.
 */
@Singleton
@Requires(property = "rdma.enabled", notEquals = StringUtils.FALSE, defaultValue = StringUtils.TRUE)
public class RdmaLifecycle implements ApplicationEventListener<StartupEvent> {

    private final RdmaConfiguration rdma;
    private final RdmaServers servers;
    private final RdmaClientConnections clients;
    private boolean stopped;

    private final io.micronaut.context.BeanContext beans;

    public RdmaLifecycle(final io.micronaut.context.BeanContext beans, final RdmaConfiguration rdma,
                         final RdmaServers servers, final RdmaClientConnections clients) {
        this.beans = beans;
        this.rdma = rdma;
        this.servers = servers;
        this.clients = clients;
    }

    @Override
    public synchronized void onApplicationEvent(final StartupEvent event) {
        // every @RdmaClient interface of the application names a configured client: fail now, not at the first call
        for (final var client : beans.getBeanDefinitions(
                io.micronaut.inject.qualifiers.Qualifiers.byStereotype(io.rdmareactive.micronaut.RdmaClient.class))) {
            clients.connection(client.stringValue(io.rdmareactive.micronaut.RdmaClient.class).orElse("default"));
        }
        servers.bindAll();
        clients.startAll();
    }

    /** Stops clients, then servers; idempotent. Runs when the context closes, before the beans it uses go. */
    @PreDestroy
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        clients.closeAll(rdma.getDrainTimeout());
        servers.closeAll(rdma.getDrainTimeout());
    }
}
