package io.rdmareactive;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import reactor.core.Disposable;

/**
 * Micrometer meters from a runtime's counters ({@link RdmaCounters}): what {@code metrics(true)} on
 * {@link RdmaClient} and {@link RdmaServer} registers, and what an application (or the Micronaut integration) binds
 * to a registry of its own with {@link #bind}. Needs {@code io.micrometer:micrometer-core}, an optional dependency
 * of rdma-reactive-core.
 *
 * <p>Eight function counters, each tagged {@value #SIDE_TAG} ({@code client} or {@code server}) and
 * {@value #NAME_TAG} (for {@code metrics(true)}: the address the client connects to or the server listens at):
 * {@value #MESSAGES_SENT}, {@value #MESSAGES_RECEIVED}, {@value #BYTES_SENT}, {@value #BYTES_RECEIVED},
 * {@value #BACKPRESSURE_EVENTS}, {@value #CREDIT_STALLS}, {@value #ERRORS} and {@value #LOOP_STALLS}. The figures are
 * those of the runtime the client or server runs on, which every client and server on it shares; they start again
 * from zero when a new runtime replaces one whose last user went (a counter reset, as Prometheus understands it).
 */
public final class RdmaMeters {

    /** Messages handed to the transport. */
    public static final String MESSAGES_SENT = "rdma.messages.sent";
    /** Messages delivered to the inbound rings. */
    public static final String MESSAGES_RECEIVED = "rdma.messages.received";
    /** Payload bytes handed to the transport. */
    public static final String BYTES_SENT = "rdma.bytes.sent";
    /** Payload bytes delivered to the inbound rings. */
    public static final String BYTES_RECEIVED = "rdma.bytes.received";
    /** Sends that found their ring full. */
    public static final String BACKPRESSURE_EVENTS = "rdma.backpressure.events";
    /** Times a sender had data but no credit. */
    public static final String CREDIT_STALLS = "rdma.credit.stalls";
    /** Errors caught by the event loops. */
    public static final String ERRORS = "rdma.errors";
    /** Times a subscriber or handler held its event loop too long. */
    public static final String LOOP_STALLS = "rdma.loop.stalls";
    /** The tag that says which side counts: {@code client} or {@code server}. */
    public static final String SIDE_TAG = "side";
    /** The tag that names the client or server. */
    public static final String NAME_TAG = "name";

    private RdmaMeters() {
    }

    /**
     * Registers the eight meters in {@code registry}, reading {@code counters} whenever the registry is read.
     * Micrometer holds a function counter's object weakly: the meters read the counters while the returned binding is
     * reachable, so keep it; disposing of it removes the meters from the registry.
     *
     * @param registry where to register them
     * @param side     the {@value #SIDE_TAG} tag, e.g. {@code client} or {@code server}
     * @param name     the {@value #NAME_TAG} tag
     * @param counters the counters now, e.g. {@code server::counters} ({@link RdmaCounters#CLOSED} while there are
     *                 none)
     * @return the binding; {@link Disposable#dispose()} removes the meters
     */
    public static Disposable bind(final MeterRegistry registry, final String side, final String name,
                                  final Supplier<RdmaCounters> counters) {
        return new Binding(Objects.requireNonNull(registry, "registry"), Objects.requireNonNull(side, "side"),
            Objects.requireNonNull(name, "name"), Objects.requireNonNull(counters, "counters"));
    }

    /** The meters of one {@link #bind}: the object each function counter reads through. */
    private static final class Binding implements Disposable {
        private final MeterRegistry registry;
        private final Supplier<RdmaCounters> counters;
        private final List<Meter> meters = new ArrayList<>(8);
        private final AtomicBoolean disposed = new AtomicBoolean();

        Binding(final MeterRegistry registry, final String side, final String name,
                final Supplier<RdmaCounters> counters) {
            this.registry = registry;
            this.counters = counters;
            add(MESSAGES_SENT, "messages handed to the transport", side, name, RdmaCounters::messagesSent);
            add(MESSAGES_RECEIVED, "messages delivered to the inbound rings", side, name,
                RdmaCounters::messagesReceived);
            add(BYTES_SENT, "payload bytes handed to the transport", side, name, RdmaCounters::bytesSent);
            add(BYTES_RECEIVED, "payload bytes delivered to the inbound rings", side, name,
                RdmaCounters::bytesReceived);
            add(BACKPRESSURE_EVENTS, "sends that found their ring full", side, name,
                RdmaCounters::backPressureEvents);
            add(CREDIT_STALLS, "times a sender had data but no credit", side, name, RdmaCounters::creditStalls);
            add(ERRORS, "errors caught by the event loops", side, name, RdmaCounters::errors);
            add(LOOP_STALLS, "times a subscriber or handler held its event loop too long", side, name,
                RdmaCounters::loopStalls);
        }

        private void add(final String meter, final String description, final String side, final String name,
                         final ToLongFunction<RdmaCounters> value) {
            meters.add(FunctionCounter.builder(meter, this, binding -> value.applyAsLong(binding.counters.get()))
                .description(description)
                .tag(SIDE_TAG, side)
                .tag(NAME_TAG, name)
                .register(registry));
        }

        @Override
        public void dispose() {
            if (disposed.compareAndSet(false, true)) {
                for (final Meter meter : meters) {
                    registry.remove(meter);
                }
            }
        }

        @Override
        public boolean isDisposed() {
            return disposed.get();
        }
    }
}
