package io.rdmareactive;

import io.rdmareactive.codec.CodecRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Accepts connections and hands each to a handler, in the style of reactor-netty. Immutable: every setter returns a
 * new server.
 *
 * <pre>{@code
 * DisposableServer server = RdmaServer.create()
 *     .provider("shm")
 *     .address("echo")
 *     .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
 *     .bind()
 *     .block();
 * }</pre>
 */
public final class RdmaServer {

    private final RdmaConfig config;
    private final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler;
    private final StreamHandler streamHandler;
    private final ConnectionHooks hooks;

    private RdmaServer(final RdmaConfig config,
                       final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler,
                       final StreamHandler streamHandler, final ConnectionHooks hooks) {
        this.config = config;
        this.handler = handler;
        this.streamHandler = streamHandler;
        this.hooks = hooks;
    }

    /** @return this server with {@code config} instead of its own, and its handlers and hooks */
    private RdmaServer with(final RdmaConfig config) {
        return new RdmaServer(config, handler, streamHandler, hooks);
    }

    /** @return a server with the defaults: provider {@code auto}, 16 streams of 64 KiB rings, 16 MiB messages */
    public static RdmaServer create() {
        return new RdmaServer(RdmaConfig.DEFAULTS, (in, out) -> Mono.never(), null, ConnectionHooks.NONE);
    }

    /** @param provider {@code auto}, {@code shm} or {@code verbs} */
    public RdmaServer provider(final String provider) {
        return with(config.withProvider(provider));
    }

    /**
     * Sets where to listen. Without an address, a server on shared memory listens at a fresh name of its own
     * ({@code server-<pid>-<random hex>}), which {@link DisposableServer#address()} names, so that tests and
     * in-process servers need not invent unique names; on verbs the address is required.
     *
     * @param address where to listen: shared memory, a name or an absolute socket path; verbs, {@code host:port},
     *                port 0 for a free one ({@link DisposableServer#address()} names it; the forms are listed in
     *                docs/getting-started.md)
     */
    public RdmaServer address(final String address) {
        return with(config.withAddress(address));
    }

    /** @param directory where the shared-memory provider keeps its files (clients must use the same) */
    public RdmaServer directory(final Path directory) {
        return with(config.withDirectory(directory));
    }

    /**
     * @param streams      the most streams a client may ask for
     * @param ringCapacity the largest ring a client may ask for (clients choose within these)
     */
    public RdmaServer rings(final int streams, final int ringCapacity) {
        return with(config.withRings(streams, ringCapacity));
    }

    /** @param bytes the largest message */
    public RdmaServer maxMessageLength(final int bytes) {
        return with(config.withMaxMessageLength(bytes));
    }

    /**
     * @param keepalive how often an idle connection proves it is alive
     * @param timeout   how long a silent peer is tolerated before the connection fails
     */
    public RdmaServer liveness(final Duration keepalive, final Duration timeout) {
        return with(config.withLiveness(keepalive, timeout));
    }

    /**
     * Turns on the authenticated handshake: only a peer that knows the same secret gets a key to any of this side's
     * memory, and this side sends its keys only to such a peer (HMAC-SHA256 over fresh nonces, both sides' settings
     * and keys; see docs/security.md). It costs one round trip more at connect; it does not encrypt. Off by default;
     * both sides must set it, or the connection is refused with a reason that says which side lacks it.
     *
     * @param secret at least 16 bytes (random ones: e.g. 32 from {@code SecureRandom}); copied
     * @throws IllegalArgumentException if it is shorter than 16 bytes
     */
    public RdmaServer secret(final byte[] secret) {
        return with(config.withSecret(
            io.rdmareactive.internal.protocol.HandshakeAuthentication.checkSecret(secret, "RdmaServer.secret")));
    }

    /**
     * Limits the connections served at once; a client beyond it is refused, and its {@code connect()} fails with
     * the reason ("already serves its maximum of N connections").
     *
     * @param connections at least 1 (default: 1,024)
     */
    public RdmaServer maxConnections(final int connections) {
        return with(config.withMaxConnections(connections));
    }

    /**
     * Limits the handshakes the server runs at once. Each runs on its own (a peer that stalls its handshake delays no
     * other) until the connection is established or its deadline passes, and counts against
     * {@link #maxConnections(int)} meanwhile; a request beyond the limit is refused at once with the reason
     * ("sets up its maximum of N connections at once"), and the client may try again. With a {@link #secret(byte[])},
     * a client holds a handshake only once it has proven that it knows the secret: the server answers a request
     * without a proof with a challenge and keeps nothing for it.
     *
     * @param handshakes at least 1 (default: 64)
     */
    public RdmaServer maxPendingHandshakes(final int handshakes) {
        return with(config.withMaxPendingHandshakes(handshakes));
    }

    /**
     * Limits the memory the server registers at once, its connections' rings together (each connection registers
     * two regions of about {@code streams x ringCapacity} bytes). A connection that would pass it is refused with
     * the reason, and the connections already served carry on.
     *
     * @param bytes positive (default: half of the machine's physical memory; on verbs the locked-memory limit applies
     *              too, whichever is lower)
     */
    public RdmaServer maxRegisteredBytes(final long bytes) {
        return with(config.withMaxRegisteredBytes(bytes));
    }

    /**
     * @param codecs the codecs that {@link Inbound#receive(Class)}, {@link Outbound#send(Publisher, Class)} and the
     *               other {@code Class}-taking methods pick by type (default {@link CodecRegistry#defaults()}); e.g.
     *               {@code CodecRegistry.defaults().with(Order.class, orderCodec)}
     */
    public RdmaServer codecs(final CodecRegistry codecs) {
        return with(config.withCodecs(Objects.requireNonNull(codecs, "codecs")));
    }

    /** @param messages how many messages a client may send ahead of this side's consumption */
    public RdmaServer prefetch(final int messages) {
        return with(config.withPrefetch(messages));
    }

    /**
     * @param strategy the event loops' idle strategy (of the shared runtime; a runtime given to
     *                 {@link #runOn} has its own): {@code busy-spin}, {@code yielding}, {@code backoff} (also
     *                 {@code backoff:maxSpins=,maxYields=,minPark=,maxPark=}), {@code sleeping[:duration]}
     */
    public RdmaServer idleStrategy(final String strategy) {
        io.rdmareactive.internal.driver.IdleStrategies.parse(strategy); // fail here, not at connect
        return with(config.withIdle(strategy));
    }

    /**
     * Registers Micrometer meters of this server's traffic in {@code Metrics.globalRegistry} (Micrometer's global
     * registry, where reactor-netty registers its own): the bound server registers them (until it is disposed) under {@code name} the address it listens at, tagged {@code side=server}; they are removed when
     * the server is disposed. The meters and their tags are listed in {@link RdmaMeters}; their figures are those of the
     * runtime the server runs on. To bind them to a registry of your own instead, use
     * {@link RdmaMeters#bind}.
     *
     * @param enable true to register them, false for none (the default)
     * @throws IllegalStateException if {@code enable} and Micrometer ({@code io.micrometer:micrometer-core}, an
     *                               optional dependency of rdma-reactive-core) is not on the class path
     */
    public RdmaServer metrics(final boolean enable) {
        if (enable) {
            MicrometerPresence.require("RdmaServer.metrics(true)");
        }
        return with(config.withMetrics(enable));
    }

    /**
     * Logs every frame this server's connections send and receive, like reactor-netty's {@code wiretap(true)}: one
     * DEBUG line per frame through Reactor's {@code Loggers} (SLF4J when the application has it), under the category
     * {@code io.rdmareactive.RdmaServer}: the connection (side, an id, the peer), {@code SENT} or {@code RECEIVED}, the stream id,
     * the frame type ({@code OPEN}, {@code DATA}, {@code COMPLETE}, {@code ERROR}, and the control stream's
     * {@code REQUEST_N}, {@code CANCEL}, {@code KEEPALIVE}, {@code REGION_CLOSED}), its flags, the payload's
     * length and its first 64 bytes in hex. For debugging: with it on, each frame costs a log call (and, while DEBUG
     * is enabled, a formatted line); with it off (the default), nothing.
     *
     * @param enable true to log under {@code io.rdmareactive.RdmaServer}, false for no logging (the default)
     */
    public RdmaServer wiretap(final boolean enable) {
        return with(config.withWiretap(enable ? RdmaServer.class.getName() : null));
    }

    /**
     * Logs every frame as {@link #wiretap(boolean) wiretap(true)} does, under a category of the caller's.
     *
     * @param category the logger's name, e.g. {@code "wire.orders"}; not blank
     */
    public RdmaServer wiretap(final String category) {
        if (java.util.Objects.requireNonNull(category, "category").isBlank()) {
            throw new IllegalArgumentException("a wiretap's logger category is not blank");
        }
        return with(config.withWiretap(category));
    }

    /**
     * Runs this server and its connections on a runtime of the application's own instead of the process's shared one.
     *
     * @param runtime a running runtime (its provider, directory, idle strategy and memory limit then apply, not this
     *                server's)
     */
    public RdmaServer runOn(final RdmaRuntime runtime) {
        return with(config.withRuntime(Objects.requireNonNull(runtime, "runtime")));
    }

    /**
     * @param handler called for each accepted connection, on the event loop the connection is pinned to; it should
     *                return at once (what its publisher does later runs where its sources emit). The connection
     *                closes when its publisher ends
     */
    public RdmaServer handle(final BiFunction<? super Inbound, ? super Outbound, ? extends Publisher<Void>> handler) {
        return new RdmaServer(config, Objects.requireNonNull(handler, "handler"), streamHandler, hooks);
    }

    /**
     * @param handler serves the streams clients open with {@link Connection#fireAndForget},
     *                {@link Connection#requestResponse}, {@link Connection#requestStream} and
     *                {@link Connection#requestChannel}; without one, such requests fail
     */
    public RdmaServer handleStreams(final StreamHandler handler) {
        return new RdmaServer(config, this.handler, Objects.requireNonNull(handler, "handler"), hooks);
    }

    /**
     * Adds a hook called with each accepted connection, on its event loop, just before the handler: e.g. to count
     * connections or to log {@link Connection#peer()}. Hooks added earlier run first. If a hook throws, the failure
     * is logged, the connection is closed (its {@link #doOnDisconnected} hooks then run) and the handler is not
     * called; the server carries on.
     *
     * @param hook called once per connection; it should return at once, as the handler should
     */
    public RdmaServer doOnConnection(final Consumer<? super Connection> hook) {
        return new RdmaServer(config, handler, streamHandler, hooks.onConnected(hook));
    }

    /**
     * Adds a hook called once when a connection of this server ends, however it ends: its handler's publisher ended,
     * either side disposed of it, the peer died or fell silent, or the server was disposed. It runs on the thread that
     * finished closing the connection, once what it held is freed ({@link Connection#onDispose()} has completed).
     * Hooks added earlier run first; one that throws is logged, and the others still run.
     *
     * @param hook called once per connection that was handed to {@link #doOnConnection} hooks and the handler
     */
    public RdmaServer doOnDisconnected(final Consumer<? super Connection> hook) {
        return new RdmaServer(config, handler, streamHandler, hooks.onDisconnected(hook));
    }

    /**
     * @return the bound server, or an {@link RdmaConnectionException} that says why it cannot listen; an
     *     {@link IllegalStateException} if this JVM lacks one of the options every JVM that uses rdma-reactive needs
     *     ({@code --enable-native-access=ALL-UNNAMED}, {@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED}),
     *     at once and naming it, if the runtime given to {@link #runOn} was disposed or broke, or if the provider is
     *     verbs and no {@link #address(String)} was given
     */
    public Mono<DisposableServer> bind() {
        return Mono.<DisposableServer>fromCallable(() -> {
            try {
                return DefaultServer.start(config, handler, streamHandler, hooks);
            } catch (final LinkageError error) { // Reactor would rethrow it, not signal it: the bind would hang
                throw Installation.failed("RdmaServer.bind()", error);
            }
        }).subscribeOn(Schedulers.boundedElastic())
            // cancelled while it was binding: the server it then binds has no owner, so it stops at once
            .doOnDiscard(DisposableServer.class, DisposableServer::dispose);
    }

    /** How long {@link #bindNow()} waits: 30 s. */
    public static final Duration DEFAULT_BIND_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Binds and waits for it, at most {@link #DEFAULT_BIND_TIMEOUT} (30 s); see {@link #bindNow(Duration)}.
     *
     * @return the bound server
     * @throws RdmaConnectionException if it cannot listen (the failure {@link #bind()} signals, as it is)
     * @throws IllegalStateException   as {@link #bind()} signals, or if binding takes longer than 30 s
     */
    public DisposableServer bindNow() {
        return bindNow(DEFAULT_BIND_TIMEOUT);
    }

    /**
     * Binds and waits for it: {@link #bind()} for code that blocks anyway (a {@code main}, a test). The failure is
     * thrown as {@link #bind()} signals it, not wrapped; a bind that outlasts the timeout is abandoned (the server it
     * may still bind is disposed of at once).
     *
     * @param timeout how long to wait; positive
     * @return the bound server
     * @throws RdmaConnectionException  if it cannot listen
     * @throws IllegalStateException    as {@link #bind()} signals, or if binding takes longer than {@code timeout}
     *                                  (the message names the address and the timeout), or if the thread is
     *                                  interrupted while it waits
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public DisposableServer bindNow(final Duration timeout) {
        return Blocking.await(bind(), timeout,
            "RdmaServer.bindNow() at '" + (config.address() == null ? "(no address)" : config.address()) + "'");
    }
}
