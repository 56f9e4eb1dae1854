package io.rdmareactive;

import io.rdmareactive.internal.protocol.ConnectionEstablishment;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolException;
import io.rdmareactive.internal.protocol.RejectFlyweight;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A bound server: a listener, an accepting thread, and a reference to the runtime whose event loops serve its
 * connections (each connection pinned to one loop, in turn).
 */
final class DefaultServer implements DisposableServer {

    private static final System.Logger LOG = System.getLogger(DefaultServer.class.getName());
    private static final Duration ACCEPT_POLL = Duration.ofMillis(100);

    private final RdmaConfig config;
    private final RdmaRuntime runtime;
    private final Listener listener;
    private final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler;
    private final StreamHandler streamHandler;
    private final Set<DefaultConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean disposed = new AtomicBoolean();
    /** Connections waiting for the client's proof of the secret. */
    private final AtomicInteger authenticating = new AtomicInteger();
    /** Orders the hand-over of an authenticated connection against {@link #dispose()}. */
    private final Object serving = new Object();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private final Thread acceptor;

    private DefaultServer(final RdmaConfig config, final RdmaRuntime runtime, final Listener listener,
                          final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler,
                          final StreamHandler streamHandler) {
        this.config = config;
        this.runtime = runtime;
        this.listener = listener;
        this.handler = handler;
        this.streamHandler = streamHandler;
        this.acceptor = Thread.ofPlatform().daemon().name("rdma-accept-" + listener.address()).unstarted(this::accept);
    }

    static DefaultServer start(final RdmaConfig config,
                               final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler,
                               final StreamHandler streamHandler) {
        final String address = config.requireAddress("RdmaServer.bind()");
        final RdmaRuntime runtime = config.acquireRuntime();
        try {
            final DefaultServer server = new DefaultServer(config, runtime, runtime.device.listen(address), handler,
                streamHandler);
            server.acceptor.start();
            return server;
        } catch (final RuntimeException ex) {
            runtime.release();
            throw ex instanceof RdmaException rdma
                ? new RdmaConnectionException("cannot listen at '" + address + "': " + rdma.getMessage(), rdma) : ex;
        }
    }

    private void accept() {
        while (!disposed.get()) {
            final ConnectRequest request;
            try {
                request = listener.accept(ACCEPT_POLL);
            } catch (final RuntimeException ex) {
                if (!disposed.get()) {
                    LOG.log(System.Logger.Level.ERROR, "accepting at '" + listener.address() + "' failed", ex);
                }
                return;
            }
            if (request == null) {
                continue;
            }
            if (connections.size() + authenticating.get() >= config.maxConnections()) {
                // short: a reject carries at most 96 bytes of reason
                refuse(request, "the server serves its maximum of " + config.maxConnections()
                    + " connections (RdmaServer.maxConnections)");
                continue;
            }
            if (config.secret() != null) {
                acceptAuthenticated(request);
                continue;
            }
            try {
                serve(ConnectionEstablishment.accept(runtime.device, request, config.protocol()));
            } catch (final ProtocolException | RdmaException ex) {
                LOG.log(System.Logger.Level.WARNING, "refused a connection at '" + listener.address() + "': "
                    + ex.getMessage());
            } catch (final RuntimeException ex) {
                LOG.log(System.Logger.Level.ERROR, "the handler for '" + listener.address() + "' failed", ex);
            }
        }
    }

    /**
     * Answers with the authenticated handshake, then waits for the client's proof on a virtual thread of its own (not
     * this accepting thread, not the driver), at most the liveness timeout; the connection counts against
     * {@code maxConnections} meanwhile.
     */
    private void acceptAuthenticated(final ConnectRequest request) {
        final ConnectionEstablishment.Authenticating pending;
        try {
            pending = ConnectionEstablishment.acceptAuthenticated(runtime.device, request, config.protocol(),
                config.secret());
        } catch (final ProtocolException | RdmaException ex) {
            LOG.log(System.Logger.Level.WARNING, "refused a connection at '" + listener.address() + "': "
                + ex.getMessage());
            return;
        }
        if (!runtime.retain()) { // the waiting thread holds the device open: closing the server cannot unmap it
            pending.abandon();
            return;
        }
        authenticating.incrementAndGet();
        Thread.ofVirtual().name("rdma-auth-" + listener.address()).start(() -> {
            try {
                final ProtocolConnection protocol = pending.await(config.livenessTimeout());
                synchronized (serving) { // dispose() either sees this connection or this thread sees disposed
                    if (disposed.get()) {
                        protocol.close();
                    } else {
                        serve(protocol);
                    }
                }
            } catch (final ProtocolException | RdmaException ex) {
                LOG.log(System.Logger.Level.WARNING, "refused a connection at '" + listener.address() + "': "
                    + ex.getMessage());
            } catch (final RuntimeException ex) {
                if (!disposed.get()) { // the server closing under a waiting connection is no failure
                    LOG.log(System.Logger.Level.ERROR, "the handler for '" + listener.address() + "' failed", ex);
                }
            } finally {
                authenticating.decrementAndGet();
                runtime.release();
            }
        });
    }

    /** Pins the connection to a loop of the runtime, where the handler is called. */
    private void serve(final ProtocolConnection protocol) {
        if (!runtime.retain()) {
            protocol.close();
            return;
        }
        final DefaultConnection connection;
        try {
            connection = new DefaultConnection(runtime, false, protocol, config, streamHandler);
        } catch (final RuntimeException ex) {
            runtime.release();
            protocol.close();
            throw ex;
        }
        connections.add(connection);
        connection.onDispose().onErrorComplete().subscribe(null, null, () -> connections.remove(connection));
        connection.onLoop(() -> {
            final Publisher<Void> handled;
            try {
                handled = handler.apply(connection.inbound(), connection.outbound());
            } catch (final RuntimeException ex) {
                LOG.log(System.Logger.Level.WARNING, "the handler of the connection from " + connection.peer()
                    + " failed", ex);
                connection.dispose();
                return;
            }
            Flux.from(handled)
                .doFinally(signal -> connection.dispose())
                .subscribe(null, error -> LOG.log(System.Logger.Level.WARNING,
                    "the handler of the connection from " + connection.peer() + " failed", error));
        });
    }

    /** Refuses a connection with a reason the client reads in its error. */
    private void refuse(final ConnectRequest request, final String reason) {
        LOG.log(System.Logger.Level.WARNING, "refused a connection from " + request.peerDescription() + ": " + reason);
        try {
            request.reject(RejectFlyweight.encode(reason, runtime.device.limits().maxRejectPrivateDataLength()));
        } catch (final RuntimeException ex) {
            LOG.log(System.Logger.Level.WARNING, "refusing a connection at '" + listener.address() + "' failed", ex);
        }
    }

    @Override
    public RdmaCounters counters() {
        return RdmaCounters.of(runtime.counters);
    }

    @Override
    public String address() {
        return listener.address();
    }

    @Override
    public Mono<Void> onDispose() {
        return closed.asMono();
    }

    /**
     * Stops accepting and closes every connection; returns at once, from any thread (an event loop's too, or the
     * thread driving an invoker-mode runtime): {@link #onDispose()} completes once the connections have closed and
     * the server gave its reference to the runtime back. Connections that have not closed after twice the liveness
     * timeout are left to the runtime, which closes them when it stops.
     */
    @Override
    public void dispose() {
        if (!disposed.compareAndSet(false, true)) {
            return;
        }
        if (runtime.loops.inAnyLoop()) {
            // waiting for the accepting thread here would hold the loop: another thread stops accepting
            Thread.ofPlatform().daemon().name("rdma-close-" + listener.address()).start(this::stopAccepting);
        } else {
            stopAccepting();
        }
    }

    /** Waits (briefly: one accept poll) for the accepting thread, closes the listener, then the connections. */
    private void stopAccepting() {
        try {
            acceptor.join(ACCEPT_POLL.multipliedBy(20).toMillis());
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        try {
            listener.close();
        } catch (final RuntimeException ex) {
            LOG.log(System.Logger.Level.WARNING, "closing the listener at '" + listener.address() + "' failed", ex);
        }
        synchronized (serving) {
            // a connection that finished its authenticated handshake before this point is in the set by now
        }
        // each connection sends what it committed and closes on its loop, which must still run meanwhile
        final Duration bound = config.livenessTimeout().multipliedBy(2);
        Flux.fromIterable(List.copyOf(connections))
            .flatMap(connection -> {
                connection.dispose();
                return connection.onDispose().onErrorComplete();
            })
            .then()
            .timeout(bound, Mono.fromRunnable(() -> LOG.log(System.Logger.Level.WARNING, "the server at '"
                + listener.address() + "': " + connections.size() + " connections had not closed " + bound
                + " after dispose(); the runtime closes them when it stops")))
            .doFinally(signal -> runtime.release(closed::tryEmitEmpty))
            .subscribe(null, error -> LOG.log(System.Logger.Level.WARNING, "disposing the server at '"
                + listener.address() + "' failed", error));
    }

    @Override
    public boolean isDisposed() {
        return disposed.get();
    }
}
