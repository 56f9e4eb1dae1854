package io.rdmareactive;

import io.rdmareactive.internal.protocol.ConnectionEstablishment;
import io.rdmareactive.internal.protocol.HandshakeCookies;
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
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * A bound server: a listener, an accepting thread that screens requests, a virtual thread per handshake under way
 * (at most {@code maxPendingHandshakes}), and a reference to the runtime whose event loops serve its connections
 * (each connection pinned to one loop, in turn).
 */
final class DefaultServer implements DisposableServer {

    private static final Logger LOG = Loggers.getLogger(DefaultServer.class);
    private static final Duration ACCEPT_POLL = Duration.ofMillis(100);

    private final RdmaConfig config;
    private final RdmaRuntime runtime;
    private final Listener listener;
    private final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler;
    private final StreamHandler streamHandler;
    private final ConnectionHooks hooks;
    private final Set<DefaultConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean disposed = new AtomicBoolean();
    /** Connections whose handshake runs. */
    private final AtomicInteger handshaking = new AtomicInteger();
    /** One permit per handshake that may run at once ({@code maxPendingHandshakes}). */
    private final Semaphore handshakes;
    /** The challenge cookies of the authenticated handshake. */
    private final HandshakeCookies cookies = new HandshakeCookies();
    /** Orders the hand-over of an authenticated connection against {@link #dispose()}. */
    private final Object serving = new Object();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private final Thread acceptor;

    private DefaultServer(final RdmaConfig config, final RdmaRuntime runtime, final Listener listener,
                          final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler,
                          final StreamHandler streamHandler, final ConnectionHooks hooks) {
        this.config = config;
        this.hooks = hooks;
        this.runtime = runtime;
        this.listener = listener;
        this.handler = handler;
        this.streamHandler = streamHandler;
        this.handshakes = new Semaphore(config.maxPendingHandshakes());
        this.acceptor = Thread.ofPlatform().daemon().name("rdma-accept-" + listener.address()).unstarted(this::accept);
    }

    static DefaultServer start(final RdmaConfig config,
                               final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler,
                               final StreamHandler streamHandler, final ConnectionHooks hooks) {
        final RdmaRuntime runtime = config.acquireRuntime();
        String address = config.address();
        try {
            if (address == null) {
                address = ephemeralAddress(runtime);
            }
            final DefaultServer server = new DefaultServer(config, runtime, runtime.device.listen(address), handler,
                streamHandler, hooks);
            server.acceptor.start();
            if (config.metrics()) {
                final Disposable meters = GlobalMeters.register("server", server.address(), server::counters);
                server.onDispose().onErrorComplete().subscribe(null, null, meters::dispose);
            }
            return server;
        } catch (final RuntimeException ex) {
            runtime.release();
            throw ex instanceof RdmaException rdma
                ? new RdmaConnectionException("cannot listen at '" + address + "': " + rdma.getMessage(), rdma) : ex;
        }
    }

    /**
     * A fresh address for a server given none: on shared memory a name no other server of this machine uses
     * ({@code server-<pid>-<random hex>}); verbs has no such default (its port 0 needs the interface's host).
     *
     * @throws IllegalStateException on a provider other than shared memory
     */
    private static String ephemeralAddress(final RdmaRuntime runtime) {
        if (!"shm".equals(runtime.device.providerName())) {
            throw new IllegalStateException("RdmaServer.bind() on the " + runtime.device.providerName()
                + " provider needs an address: call address(\"host:port\") first (port 0 for a free port)");
        }
        return "server-" + ProcessHandle.current().pid() + "-"
            + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /**
     * The accepting thread: it only screens requests (the connection limits; with a secret, the challenge and the
     * proof, which hold nothing) and hands each admitted one to a handshake of its own, so that a peer that stalls its
     * handshake delays no other.
     */
    private void accept() {
        while (!disposed.get()) {
            final ConnectRequest request;
            try {
                request = listener.accept(ACCEPT_POLL);
            } catch (final RuntimeException ex) {
                if (!disposed.get()) {
                    LOG.error("accepting at '{}' failed", listener.address(), ex);
                }
                return;
            }
            if (request == null) {
                continue;
            }
            if (connections.size() + handshaking.get() >= config.maxConnections()) {
                // short: a reject carries at most 96 bytes of reason
                refuse(request, "the server serves its maximum of " + config.maxConnections()
                    + " connections (RdmaServer.maxConnections)");
                continue;
            }
            try {
                if (config.secret() != null && !ConnectionEstablishment.screen(runtime.device, request,
                    config.protocol(), config.secret(), cookies)) {
                    continue; // challenged: nothing is held until the client comes back with its proof
                }
            } catch (final ProtocolException | RdmaException ex) {
                LOG.warn("refused a connection at '{}': {}", listener.address(), ex.getMessage());
                continue;
            }
            if (!handshakes.tryAcquire()) {
                refuse(request, "the server sets up its maximum of " + config.maxPendingHandshakes()
                    + " connections at once (RdmaServer.maxPendingHandshakes); try again");
                continue;
            }
            if (!runtime.retain()) { // the handshake holds the device open: closing the server cannot unmap it
                handshakes.release();
                refuse(request, "the server is closing");
                continue;
            }
            handshaking.incrementAndGet();
            Thread.ofVirtual().name("rdma-handshake-" + listener.address()).start(() -> handshake(request));
        }
    }

    /**
     * One connection's handshake, on a virtual thread of its own (not the accepting thread, not an event loop),
     * bounded by the provider's accept deadline and, with a secret, by the liveness timeout for the client's keys; the
     * connection counts against {@code maxConnections} and {@code maxPendingHandshakes} meanwhile.
     */
    private void handshake(final ConnectRequest request) {
        try {
            final ProtocolConnection protocol = config.secret() == null
                ? ConnectionEstablishment.accept(runtime.device, request, config.protocol())
                : ConnectionEstablishment.acceptAuthenticated(runtime.device, request, config.protocol(),
                    config.secret()).await(config.livenessTimeout());
            synchronized (serving) { // dispose() either sees this connection or this thread sees disposed
                if (disposed.get()) {
                    protocol.close();
                } else {
                    serve(protocol);
                }
            }
        } catch (final ProtocolException | RdmaException ex) {
            LOG.warn("refused a connection at '{}': {}", listener.address(), ex.getMessage());
        } catch (final RuntimeException ex) {
            if (!disposed.get()) { // the server closing under a handshake is no failure
                LOG.error("the handler for '{}' failed", listener.address(), ex);
            }
        } finally {
            handshaking.decrementAndGet();
            handshakes.release();
            runtime.release();
        }
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
            try {
                hooks.connected(connection);
            } catch (final RuntimeException ex) {
                LOG.warn("a doOnConnection hook failed for the connection from {}; it is closed", connection.peer(),
                    ex);
                return; // the hooks closed it
            }
            final Publisher<Void> handled;
            try {
                handled = handler.apply(connection.inbound(), connection.outbound());
            } catch (final RuntimeException ex) {
                LOG.warn("the handler of the connection from {} failed", connection.peer(), ex);
                connection.dispose();
                return;
            }
            Flux.from(handled)
                .doFinally(signal -> connection.dispose())
                .subscribe(null, error -> LOG.warn("the handler of the connection from {} failed", connection.peer(),
                    error));
        });
    }

    /** Refuses a connection with a reason the client reads in its error. */
    private void refuse(final ConnectRequest request, final String reason) {
        LOG.warn("refused a connection from {}: {}", request.peerDescription(), reason);
        try {
            request.reject(RejectFlyweight.encode(reason, runtime.device.limits().maxRejectPrivateDataLength()));
        } catch (final RuntimeException ex) {
            LOG.warn("refusing a connection at '{}' failed", listener.address(), ex);
        }
    }

    /** @return the connections open now (tests) */
    Set<DefaultConnection> connections() {
        return Set.copyOf(connections);
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
            LOG.warn("closing the listener at '{}' failed", listener.address(), ex);
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
            .timeout(bound, Mono.fromRunnable(() -> LOG.warn("the server at '{}': {} connections had not closed {} "
                + "after dispose(); the runtime closes them when it stops", listener.address(), connections.size(),
                bound)))
            .doFinally(signal -> runtime.release(closed::tryEmitEmpty))
            .subscribe(null, error -> LOG.warn("disposing the server at '{}' failed", listener.address(), error));
    }

    @Override
    public boolean isDisposed() {
        return disposed.get();
    }
}
