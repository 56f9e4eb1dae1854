package io.rdmareactive.micronaut.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.configuration.metrics.annotation.RequiresMetrics;
import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.util.StringUtils;
import io.rdmareactive.RdmaCounters;
import io.rdmareactive.RdmaMeters;
import io.rdmareactive.micronaut.config.RdmaClientConfiguration;
import io.rdmareactive.micronaut.config.RdmaServerConfiguration;
import io.rdmareactive.micronaut.internal.RdmaClientConnections;
import io.rdmareactive.micronaut.internal.RdmaServers;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import reactor.core.Disposable;

/**
 * Micrometer meters from the runtime's counters ({@code micronaut.metrics.binders.rdma.enabled}, default true; only
 * with micronaut-micrometer-core): for each configured server ({@code side=server}) and client ({@code side=client})
 * named {@code name}, the core's meters ({@link RdmaMeters}: {@code rdma.messages.sent},
 * {@code rdma.messages.received}, {@code rdma.bytes.sent}, {@code rdma.bytes.received},
 * {@code rdma.backpressure.events}, {@code rdma.credit.stalls}, {@code rdma.errors} and {@code rdma.loop.stalls}),
 * bound to the context's registry and removed when the context closes. The figures are those of the runtime the
 * server or client runs on, which the process's servers and clients of one configuration share; they start again from
 * zero when a new runtime replaces one whose last user went (a counter reset, as Prometheus understands it).
 */
@Singleton
@RequiresMetrics
@Requires(classes = MeterBinder.class)
@Requires(property = "micronaut.metrics.binders.rdma.enabled", notEquals = StringUtils.FALSE,
    defaultValue = StringUtils.TRUE)
@Requires(property = "rdma.enabled", notEquals = StringUtils.FALSE, defaultValue = StringUtils.TRUE)
public class RdmaMeterBinder implements MeterBinder {

    private final BeanContext beans;
    private final RdmaServers servers;
    private final RdmaClientConnections clients;
    private final List<Disposable> bindings = new CopyOnWriteArrayList<>();

    public RdmaMeterBinder(final BeanContext beans, final RdmaServers servers, final RdmaClientConnections clients) {
        this.beans = beans;
        this.servers = servers;
        this.clients = clients;
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        for (final RdmaServerConfiguration server : beans.getBeansOfType(RdmaServerConfiguration.class)) {
            final String name = server.getName();
            register(registry, "server", name, () -> {
                final RdmaServers.Bound bound = servers.bound().get(name);
                return bound == null ? RdmaCounters.CLOSED : bound.server().counters();
            });
        }
        for (final RdmaClientConfiguration client : beans.getBeansOfType(RdmaClientConfiguration.class)) {
            final String name = client.getName();
            register(registry, "client", name, () -> clients.all().stream()
                .filter(connection -> connection.name().equals(name)).findFirst()
                .flatMap(connection -> connection.connected()).map(connection -> connection.counters())
                .orElse(RdmaCounters.CLOSED));
        }
    }

    private void register(final MeterRegistry registry, final String side, final String name,
                          final Supplier<RdmaCounters> counters) {
        // the core's meters; the binder, a singleton of the context, keeps the bindings, so that Micrometer's weak
        // hold on each function counter's object keeps reading
        bindings.add(RdmaMeters.bind(registry, side, name, counters));
    }

    /** The context closes: the meters go with it. */
    @PreDestroy
    void close() {
        for (final Disposable binding : bindings) {
            binding.dispose();
        }
        bindings.clear();
    }
}
