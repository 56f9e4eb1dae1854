package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.Logger;
import reactor.util.Loggers;
import reactor.util.retry.Retry;

/**
 * A client connection that comes back by itself, made by {@link RdmaClient#reconnect(Retry)}. It connects at once, in
 * the background, retrying as its {@link Retry} says for as long as the server is not there; when an established
 * connection ends (the server went, the peer fell silent past the liveness timeout, either side disposed of it), it
 * connects again at once, with the same {@code Retry} for the attempts that fail.
 *
 * <p>Calls go through {@link #connection()} (or the request methods here, which use it): a call made while there is
 * no connection waits for the next one, at most the client's connect timeout. A call in flight when its connection
 * ends fails with that connection's {@link RdmaConnectionException} and is not repeated: the server may or may not
 * have seen it, and only the application knows whether doing it twice is safe. Nothing is queued behind its back:
 * each call runs on the connection it was given, once.
 *
 * <p>{@link #dispose()} stops connecting and closes the connection; calls waiting for one fail. If the {@code Retry}
 * gives up, the handle ends as if disposed, and its calls and {@link #onDispose()} fail with the last attempt's
 * failure.
 */
public final class ReconnectingConnection implements Disposable {

    private static final Logger LOG = Loggers.getLogger(ReconnectingConnection.class);

    private final RdmaClient client;
    private final String address;
    private final Retry retry;
    private final Duration wait;
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong failedAttempts = new AtomicLong();
    private final Sinks.Empty<Void> ended = Sinks.empty();
    private final Object lock = new Object();
    /** The connection of this round, once made; a new round begins when it ends. Guarded by {@link #lock}. */
    private Sinks.One<Connection> round;
    private Connection connected;
    private Disposable attempt;
    private boolean closing;
    /** Why calls fail once closing: disposed of, or the {@code Retry} gave up. */
    private RdmaConnectionException endError;
    private volatile Throwable lastFailure;

    /**
     * @param client  the client that connects (its connect timeout bounds one attempt and a call's wait)
     * @param address where it connects, for messages
     * @param wait    how long a call waits for a connection
     * @param retry   when to try again after a failed attempt
     */
    ReconnectingConnection(final RdmaClient client, final String address, final Duration wait, final Retry retry) {
        this.client = client;
        this.address = address;
        this.wait = wait;
        this.retry = retry;
        synchronized (lock) {
            connectAgain();
        }
    }

    /** Begins a round: connects, retrying as the {@code Retry} says (holding {@link #lock}). */
    private void connectAgain() {
        final Sinks.One<Connection> sink = Sinks.one();
        round = sink;
        connected = null;
        attempt = client.connect()
            .doOnError(this::attemptFailed)
            .retryWhen(retry)
            .subscribe(connection -> established(sink, connection), error -> gaveUp(sink, error));
    }

    private void attemptFailed(final Throwable error) {
        lastFailure = error;
        final long failed = failedAttempts.incrementAndGet();
        if (failed == 1 || failed % 10 == 0) {
            LOG.info("connecting to {} failed ({} attempts so far): {}", address, failed, error.getMessage());
        }
    }

    private void established(final Sinks.One<Connection> sink, final Connection connection) {
        synchronized (lock) {
            if (closing || round != sink) {
                connection.dispose(); // disposed of meanwhile: nobody will use it
                return;
            }
            connected = connection;
        }
        lastFailure = null;
        failedAttempts.set(0);
        if (connections.incrementAndGet() > 1) {
            LOG.info("reconnected to {} ({})", address, connection.peer());
        }
        sink.tryEmitValue(connection);
        connection.onDispose().onErrorResume(error -> {
            LOG.warn("the connection to {} ended: {}; connecting again", address, error.getMessage());
            return Mono.empty();
        }).subscribe(null, null, () -> lost(connection));
    }

    /** {@code connection} ended, or was found disposed of: a new round, unless one began already or it is over. */
    private void lost(final Connection connection) {
        synchronized (lock) {
            if (!closing && connected == connection) {
                connectAgain();
            }
        }
    }

    private void gaveUp(final Sinks.One<Connection> sink, final Throwable error) {
        final RdmaConnectionException failure = new RdmaConnectionException("gave up connecting to '" + address
            + "': " + error.getMessage(), error);
        synchronized (lock) {
            if (closing || round != sink) {
                return;
            }
            closing = true;
            endError = failure;
        }
        LOG.warn("gave up connecting to {}: {}", address, error.getMessage());
        sink.tryEmitError(failure);
        ended.tryEmitError(failure);
    }

    /**
     * @return the connection: the established one, or the next one made, waiting at most the client's connect timeout
     *     ({@link RdmaClient#connectTimeout(Duration)}, default 10 s); an {@link RdmaConnectionException} if none came
     *     in time (saying why the last attempt failed), if this was disposed of, or if the {@code Retry} gave up
     */
    public Mono<Connection> connection() {
        return live().timeout(wait, Mono.defer(() -> Mono.error(noConnection())));
    }

    /** The connection of the current round; one found disposed of (its end not yet seen here) begins the next. */
    private Mono<Connection> live() {
        return Mono.defer(() -> {
            final Sinks.One<Connection> sink;
            synchronized (lock) {
                if (closing) {
                    return Mono.error(endError);
                }
                sink = round;
            }
            return sink.asMono().flatMap(connection -> {
                if (connection.isDisposed()) {
                    lost(connection);
                    return live();
                }
                return Mono.just(connection);
            });
        });
    }

    private RdmaConnectionException noConnection() {
        final Throwable failure = lastFailure;
        final String prefix = "no connection to '" + address + "' after " + wait + " (the client's connect timeout); ";
        return failure == null ? new RdmaConnectionException(prefix + "is the server up?")
            : new RdmaConnectionException(prefix + "the last attempt failed: " + failure.getMessage(), failure);
    }

    private RdmaConnectionException disposedError() {
        return new RdmaConnectionException("the reconnecting connection to '" + address + "' was disposed of");
    }

    /**
     * Runs {@code call} on the connection ({@link #connection()}): once, on the connection it is given.
     *
     * @param call what to do with the connection
     * @return its signals; an {@link RdmaConnectionException} if no connection came in time, or if the connection
     *     ended before the call did
     */
    public <T> Flux<T> withConnection(final Function<? super Connection, ? extends Publisher<T>> call) {
        return connection().flatMapMany(call);
    }

    /** {@link Connection#fireAndForget(Object, Codec)} on the connection ({@link #connection()}). */
    public <Q> Mono<Void> fireAndForget(final Q request, final Codec<Q> codec) {
        return connection().flatMap(connection -> connection.fireAndForget(request, codec));
    }

    /** {@link Connection#requestResponse(Object, Codec, Codec)} on the connection ({@link #connection()}). */
    public <Q, R> Mono<R> requestResponse(final Q request, final Codec<Q> requestCodec, final Codec<R> responseCodec) {
        return connection().flatMap(connection -> connection.requestResponse(request, requestCodec, responseCodec));
    }

    /** {@link Connection#requestStream(Object, Codec, Codec)} on the connection ({@link #connection()}). */
    public <Q, R> Flux<R> requestStream(final Q request, final Codec<Q> requestCodec, final Codec<R> responseCodec) {
        return connection().flatMapMany(connection -> connection.requestStream(request, requestCodec, responseCodec));
    }

    /** {@link Connection#requestChannel(Publisher, Codec, Codec)} on the connection ({@link #connection()}). */
    public <Q, R> Flux<R> requestChannel(final Publisher<? extends Q> requests, final Codec<Q> requestCodec,
                                         final Codec<R> responseCodec) {
        return connection().flatMapMany(connection -> connection.requestChannel(requests, requestCodec,
            responseCodec));
    }

    /** @return the connection if one is established and open now; empty while connecting again */
    public Optional<Connection> current() {
        final Connection connection;
        synchronized (lock) {
            connection = connected;
        }
        return connection == null || connection.isDisposed() ? Optional.empty() : Optional.of(connection);
    }

    /** @return how many connections were established so far (more than one after a reconnection) */
    public long connections() {
        return connections.get();
    }

    /**
     * Stops connecting (an attempt under way is cancelled, and the connection it may still make is closed), closes the
     * established connection, and fails the calls waiting for one. Idempotent; returns at once.
     */
    @Override
    public void dispose() {
        final Disposable pending;
        final Connection connection;
        final Sinks.One<Connection> waiting;
        synchronized (lock) {
            if (closing) {
                return;
            }
            closing = true;
            endError = disposedError();
            pending = attempt;
            connection = connected;
            waiting = round;
        }
        pending.dispose();
        waiting.tryEmitError(disposedError()); // the calls waiting for this round's connection
        if (connection == null) {
            ended.tryEmitEmpty();
            return;
        }
        connection.dispose();
        connection.onDispose().onErrorComplete().subscribe(null, null, ended::tryEmitEmpty);
    }

    /** @return true once disposed of, or once the {@code Retry} gave up */
    @Override
    public boolean isDisposed() {
        synchronized (lock) {
            return closing;
        }
    }

    /**
     * @return completes once disposed of and the connection closed; fails with the last attempt's failure if the
     *     {@code Retry} gave up
     */
    public Mono<Void> onDispose() {
        return ended.asMono();
    }

    @Override
    public String toString() {
        return "ReconnectingConnection{" + address + ", " + connections.get() + " connections}";
    }
}
