package io.rdmareactive.micronaut.internal;

import io.rdmareactive.Connection;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaConnectionException;
import io.rdmareactive.RdmaStreamsBusyException;
import io.rdmareactive.micronaut.config.RdmaClientConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.Logger;
import reactor.util.Loggers;
import reactor.util.retry.Retry;
import org.reactivestreams.Publisher;

/**
 * One named client connection that comes back by itself. It connects when started, retrying with exponential
 * backoff (between {@code reconnect-min-backoff} and {@code reconnect-max-backoff}) for as long as the server is not
 * there; when an established connection ends, it starts connecting again at once.
 *
 * <p>Calls wait for the connection (at most {@code connect-timeout}). A call in flight when the connection drops
 * fails with the connection's error and is not repeated: the listener may or may not have seen it, and only the
 * application knows whether doing it twice is safe. Calls made after the drop wait for the new connection.
 *
 * <p>{@link #drainAndClose(Duration)} refuses new calls, waits for those in flight, then closes.
 */
public final class ReconnectingConnection {

    private static final Logger LOG = Loggers.getLogger(ReconnectingConnection.class);

    private final RdmaClientConfiguration config;
    private final RdmaClient client;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong connections = new AtomicLong();
    private volatile Mono<Connection> current;
    private volatile Connection connected;
    private final StreamPermits permits;
    private volatile boolean draining;
    private volatile boolean closing;
    private volatile Disposable attempt;

    ReconnectingConnection(final RdmaClientConfiguration config, final RdmaClient client) {
        this.config = config;
        this.client = client;
        this.permits = new StreamPermits(Math.max(1, (config.getStreams() - 2) / 2));
    }

    /** Starts connecting (in the background). */
    synchronized void start() {
        if (current == null) {
            reconnect();
        }
    }

    private synchronized void reconnect() {
        if (closing) {
            return;
        }
        connected = null;
        final Mono<Connection> next = client.connect()
            .retryWhen(Retry.backoff(Long.MAX_VALUE, config.getReconnectMinBackoff())
                .maxBackoff(config.getReconnectMaxBackoff())
                .filter(error -> !closing)
                .doBeforeRetry(signal -> {
                    lastFailure = signal.failure();
                    if (signal.totalRetries() == 0 || signal.totalRetries() % 10 == 9) {
                        LOG.info("RDMA client '{}' cannot connect to {} yet ({}); retrying", config.getName(),
                            config.getAddress().orElse("?"), signal.failure().getMessage());
                    }
                }))
            .doOnNext(this::established)
            .cache();
        current = next;
        attempt = next.subscribe(ignored -> { }, error -> LOG.debug("RDMA client '{}' stopped connecting: {}",
            config.getName(), error.toString()));
    }

    /** A call found no connection in time: why, with the last attempt's failure when there was one. */
    private RdmaConnectionException noConnection() {
        final Throwable failure = lastFailure;
        final String prefix = "the RDMA client '" + config.getName() + "' has no connection to "
            + config.getAddress().orElse("?") + " after " + config.getConnectTimeout() + " ("
            + config.key("connect-timeout") + "); ";
        return failure == null ? new RdmaConnectionException(prefix + "is the server up?")
            : new RdmaConnectionException(prefix + "the last attempt failed: " + failure.getMessage(), failure);
    }

    /** Why the last connection attempt failed, or null once connected (for the calls that find no connection). */
    private volatile Throwable lastFailure;

    private void established(final Connection connection) {
        if (closing) {
            connection.dispose();
            return;
        }
        connected = connection;
        lastFailure = null;
        connections.incrementAndGet();
        LOG.info("RDMA client '{}' connected to {}", config.getName(), connection.peer());
        connection.onDispose().onErrorResume(error -> {
            LOG.warn("RDMA client '{}' lost its connection to {}: {}", config.getName(), connection.peer(),
                error.getMessage());
            return Mono.empty();
        }).subscribe(null, null, () -> {
            if (!closing) {
                reconnect();
            }
        });
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
            if (current == null) {
                return Flux.error(new RdmaConnectionException("the RDMA client '" + config.getName()
                    + "' is not started (rdma.enabled is false?)"));
            }
            inFlight.incrementAndGet();
            // a connection that has just ended, before its end started the next attempt: look again shortly
            final Mono<Connection> connection = Mono.defer(() -> current).filter(c -> !c.isDisposed())
                .repeatWhenEmpty(Integer.MAX_VALUE, empty -> empty.delayElements(Duration.ofMillis(5)));
            return connection
                .timeout(config.getConnectTimeout(), Mono.error(this::noConnection))
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
    public java.util.Optional<Connection> connected() {
        final Connection connection = connected;
        return connection == null || connection.isDisposed() ? java.util.Optional.empty()
            : java.util.Optional.of(connection);
    }

    /** @return how many connections were established so far (more than one after a reconnection) */
    public long connections() {
        return connections.get();
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
        closing = true;
        final Disposable pending = attempt;
        if (pending != null) {
            pending.dispose();
        }
        final Connection connection = connected;
        if (connection != null) {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(drainTimeout);
        }
    }
}
