package io.rdmareactive.micronaut.internal;

import io.rdmareactive.Connection;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaConnectionException;
import io.rdmareactive.RdmaStreamsBusyException;
import io.rdmareactive.micronaut.config.RdmaClientConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.util.Logger;
import reactor.util.Loggers;
import reactor.util.retry.Retry;

/**
 * One named client connection that comes back by itself: the core's {@link RdmaClient#reconnect(Retry)}, started at
 * startup with exponential backoff between {@code reconnect-min-backoff} and {@code reconnect-max-backoff}, plus what
 * the application's calls need around it: a call waits for the connection (at most {@code connect-timeout}), holds a
 * permit of the connection's request streams, tries again while the server still holds every stream (nothing was
 * sent), and counts as in flight until it ends. A call in flight when the connection drops fails with the
 * connection's error and is not repeated (the core's rule).
 *
 * <p>{@link #drainAndClose(Duration)} refuses new calls, waits for those in flight, then closes.
 */
public final class ReconnectingConnection {

    private static final Logger LOG = Loggers.getLogger(ReconnectingConnection.class);

    private final RdmaClientConfiguration config;
    private final RdmaClient client;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final StreamPermits permits;
    private volatile io.rdmareactive.ReconnectingConnection connection;
    private volatile boolean draining;

    ReconnectingConnection(final RdmaClientConfiguration config, final RdmaClient client) {
        this.config = config;
        this.client = client;
        this.permits = new StreamPermits(Math.max(1, (config.getStreams() - 2) / 2));
    }

    /** Starts connecting (in the background). */
    synchronized void start() {
        if (connection == null) {
            connection = client.reconnect(Retry.backoff(Long.MAX_VALUE, config.getReconnectMinBackoff())
                .maxBackoff(config.getReconnectMaxBackoff()));
        }
    }

    /**
     * Runs a call on the connection, counting it in flight until it ends.
     *
     * @param call what to do with the connection
     * @return the call's signals
     */
    <T> Flux<T> call(final java.util.function.Function<Connection, Publisher<T>> call) {
        return Flux.defer(() -> {
            if (draining) {
                return Flux.error(new RdmaConnectionException("the RDMA client '" + config.getName()
                    + "' is closed (the application is stopping)"));
            }
            final io.rdmareactive.ReconnectingConnection started = connection;
            if (started == null) {
                return Flux.error(new RdmaConnectionException("the RDMA client '" + config.getName()
                    + "' is not started (rdma.enabled is false?)"));
            }
            inFlight.incrementAndGet();
            return started.connection()
                .onErrorMap(RdmaConnectionException.class, error -> new RdmaConnectionException("the RDMA client '"
                    + config.getName() + "': " + error.getMessage(), error))
                .flatMapMany(established -> permits.run(Flux.defer(() -> call.apply(established))
                    .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(1)).maxBackoff(Duration.ofMillis(50))
                        .filter(ReconnectingConnection::allStreamsBusy))))
                .doFinally(signal -> inFlight.decrementAndGet());
        });
    }

    /**
     * The core refuses to open a stream when all the connection's request streams are still held by the server (it
     * has not finished serving earlier calls): nothing was sent, so trying again is safe.
     */
    private static boolean allStreamsBusy(final Throwable error) {
        return error instanceof RdmaStreamsBusyException;
    }

    /** @return the client's name */
    public String name() {
        return config.getName();
    }

    /** @return the connection, if one is established now */
    public Optional<Connection> connected() {
        final io.rdmareactive.ReconnectingConnection started = connection;
        return started == null ? Optional.empty() : started.current();
    }

    /** @return how many connections were established so far (more than one after a reconnection) */
    public long connections() {
        final io.rdmareactive.ReconnectingConnection started = connection;
        return started == null ? 0 : started.connections();
    }

    /** @return calls in flight now */
    public int inFlight() {
        return inFlight.get();
    }

    /** @return the configuration */
    public RdmaClientConfiguration configuration() {
        return config;
    }

    /** Refuses new calls, waits (at most {@code drainTimeout}) for the calls in flight, then closes. */
    void drainAndClose(final Duration drainTimeout) {
        draining = true;
        final Instant deadline = Instant.now().plus(drainTimeout);
        while (inFlight.get() > 0 && Instant.now().isBefore(deadline)) {
            RdmaServers.sleepBriefly();
        }
        if (inFlight.get() > 0) {
            LOG.warn("RDMA client '{}' closes with {} calls in flight (rdma.drain-timeout {})", config.getName(),
                inFlight.get(), drainTimeout);
        }
        final io.rdmareactive.ReconnectingConnection started = connection;
        if (started != null) {
            started.dispose();
            started.onDispose().onErrorComplete().block(drainTimeout);
        }
    }
}
