package io.rdmareactive.micronaut.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.configuration.metrics.annotation.RequiresMetrics;
import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.util.StringUtils;
import io.rdmareactive.RdmaCounters;
import io.rdmareactive.micronaut.config.RdmaClientConfiguration;
import io.rdmareactive.micronaut.config.RdmaServerConfiguration;
import io.rdmareactive.micronaut.internal.RdmaClientConnections;
import io.rdmareactive.micronaut.internal.RdmaServers;
import jakarta.inject.Singleton;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters from the runtime's counters ({@code micronaut.metrics.binders.rdma.enabled}, default true; only
 * with micronaut-micrometer-core): for each configured server ({@code side=server}) and client ({@code side=client})
 * named {@code name}, the function counters {@code rdma.messages.sent}, {@code rdma.messages.received},
 * {@code rdma.bytes.sent}, {@code rdma.bytes.received}, {@code rdma.backpressure.events}, {@code rdma.credit.stalls},
 * {@code rdma.errors} and {@code rdma.loop.stalls}. The figures are those of the runtime the server or client runs
 * on, which the process's servers and clients of one configuration share; they start again from zero when a new
 * runtime replaces one whose last user went (a counter reset, as Prometheus understands it).
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
        counter(registry, "rdma.messages.sent", "messages handed to the transport", side, name, counters,
            RdmaCounters::messagesSent);
        counter(registry, "rdma.messages.received", "messages delivered to the inbound rings", side, name, counters,
            RdmaCounters::messagesReceived);
        counter(registry, "rdma.bytes.sent", "payload bytes handed to the transport", side, name, counters,
            RdmaCounters::bytesSent);
        counter(registry, "rdma.bytes.received", "payload bytes delivered to the inbound rings", side, name, counters,
            RdmaCounters::bytesReceived);
        counter(registry, "rdma.backpressure.events", "sends that found their ring full", side, name, counters,
            RdmaCounters::backPressureEvents);
        counter(registry, "rdma.credit.stalls", "times a sender had data but no credit", side, name, counters,
            RdmaCounters::creditStalls);
        counter(registry, "rdma.errors", "errors caught by the event loops", side, name, counters,
            RdmaCounters::errors);
        counter(registry, "rdma.loop.stalls", "times a subscriber or handler held its event loop too long", side, name,
            counters, RdmaCounters::loopStalls);
    }

    private void counter(final MeterRegistry registry, final String meter, final String description,
                         final String side, final String name, final Supplier<RdmaCounters> counters,
                         final ToLongFunction<RdmaCounters> value) {
        // Micrometer holds a function counter's object weakly, and a meter whose object was collected reads its
        // last value from then on: the object is the binder, a singleton of the context; the supplier is held by
        // the function, which the meter holds strongly
        FunctionCounter.builder(meter, this, ignored -> value.applyAsLong(counters.get()))
            .description(description)
            .tag("side", side)
            .tag("name", name)
            .register(registry);
    }
}
