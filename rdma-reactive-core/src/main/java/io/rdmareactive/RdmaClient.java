package io.rdmareactive;

import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.internal.protocol.ConnectionEstablishment;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import java.nio.file.Path;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Connects to an {@link RdmaServer}. Immutable: every setter returns a new client.
 *
 * <pre>{@code
 * Connection connection = RdmaClient.create()
 *     .provider("shm")
 *     .address("quotes")
 *     .connect()
 *     .block();
 * }</pre>
 */
public final class RdmaClient {

    private final RdmaConfig config;
    private final ConnectionHooks hooks;

    private RdmaClient(final RdmaConfig config, final ConnectionHooks hooks) {
        this.config = config;
        this.hooks = hooks;
    }

    /** @return this client with {@code config} instead of its own, and its hooks */
    private RdmaClient with(final RdmaConfig config) {
        return new RdmaClient(config, hooks);
    }

    /** @return a client with the defaults: provider {@code auto}, 16 streams of 64 KiB rings, 16 MiB messages */
    public static RdmaClient create() {
        return new RdmaClient(RdmaConfig.DEFAULTS, ConnectionHooks.NONE);
    }

    /** @param provider {@code auto}, {@code shm} or {@code verbs} */
    public RdmaClient provider(final String provider) {
        return with(config.withProvider(provider));
    }

    /**
     * @param address the server's address: shared memory, its name or an absolute socket path; verbs,
     *                {@code host:port} (the forms are listed in docs/getting-started.md)
     */
    public RdmaClient address(final String address) {
        return with(config.withAddress(address));
    }

    /** @param directory where the shared-memory provider keeps its files (the server's must be the same) */
    public RdmaClient directory(final Path directory) {
        return with(config.withDirectory(directory));
    }

    /**
     * @param streams      streams per connection
     * @param ringCapacity bytes per stream ring, each way: a power of two from 4096 to 16 MiB
     */
    public RdmaClient rings(final int streams, final int ringCapacity) {
        return with(config.withRings(streams, ringCapacity));
    }

    /** @param bytes the largest message; larger ones fail to send */
    public RdmaClient maxMessageLength(final int bytes) {
        return with(config.withMaxMessageLength(bytes));
    }

    /**
     * @param keepalive how often an idle connection proves it is alive
     * @param timeout   how long a silent peer is tolerated before the connection fails
     */
    public RdmaClient liveness(final Duration keepalive, final Duration timeout) {
        return with(config.withLiveness(keepalive, timeout));
    }

    /**
     * Limits the memory this client's runtime registers at once; a connection that would pass it fails to connect,
     * naming the limit.
     *
     * @param bytes positive (default: half of the machine's physical memory; on verbs the locked-memory limit applies
     *              too, whichever is lower)
     */
    public RdmaClient maxRegisteredBytes(final long bytes) {
        return with(config.withMaxRegisteredBytes(bytes));
    }

    /**
     * @param codecs the codecs that {@link Inbound#receive(Class)}, {@link Outbound#send(org.reactivestreams.Publisher,
     *               Class)} and the other {@code Class}-taking methods pick by type (default
     *               {@link CodecRegistry#defaults()}); e.g. {@code CodecRegistry.defaults().with(Order.class, orderCodec)}
     */
    public RdmaClient codecs(final CodecRegistry codecs) {
        return with(config.withCodecs(java.util.Objects.requireNonNull(codecs, "codecs")));
    }

    /** @param messages how many messages the peer may send ahead of this side's consumption */
    public RdmaClient prefetch(final int messages) {
        return with(config.withPrefetch(messages));
    }

    /**
     * @param strategy the event loops' idle strategy (of the shared runtime; a runtime given to
     *                 {@link #runOn} has its own): {@code busy-spin}, {@code yielding}, {@code backoff} (also
     *                 {@code backoff:maxSpins=,maxYields=,minPark=,maxPark=}), {@code sleeping[:duration]}
     */
    public RdmaClient idleStrategy(final String strategy) {
        io.rdmareactive.internal.driver.IdleStrategies.parse(strategy); // fail here, not at connect
        return with(config.withIdle(strategy));
    }

    /** @param timeout how long {@link Connection#requestResponse} waits for its answer (default 30 s) */
    public RdmaClient requestTimeout(final Duration timeout) {
        return with(config.withRequestTimeout(timeout));
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
    public RdmaClient secret(final byte[] secret) {
        return with(config.withSecret(
            io.rdmareactive.internal.protocol.HandshakeAuthentication.checkSecret(secret, "RdmaClient.secret")));
    }

    /** @param timeout how long to wait for the server to answer (and, with a secret, to prove it knows it) */
    public RdmaClient connectTimeout(final Duration timeout) {
        return with(config.withConnectTimeout(timeout));
    }

    /**
     * Registers Micrometer meters of this client's traffic in {@code Metrics.globalRegistry} (Micrometer's global
     * registry, where reactor-netty registers its own): each connection this client makes registers them (while it is open) under {@code name} the address it connects to; several connections to one address share them, tagged {@code side=client}; they are removed when
     * the connection ends. The meters and their tags are listed in {@link RdmaMeters}; their figures are those of the
     * runtime the client runs on. To bind them to a registry of your own instead, use
     * {@link RdmaMeters#bind}.
     *
     * @param enable true to register them, false for none (the default)
     * @throws IllegalStateException if {@code enable} and Micrometer ({@code io.micrometer:micrometer-core}, an
     *                               optional dependency of rdma-reactive-core) is not on the class path
     */
    public RdmaClient metrics(final boolean enable) {
        if (enable) {
            MicrometerPresence.require("RdmaClient.metrics(true)");
        }
        return with(config.withMetrics(enable));
    }

    /**
     * Logs every frame this client's connections send and receive, like reactor-netty's {@code wiretap(true)}: one
     * DEBUG line per frame through Reactor's {@code Loggers} (SLF4J when the application has it), under the category
     * {@code io.rdmareactive.RdmaClient}: the connection (side, an id, the peer), {@code SENT} or {@code RECEIVED}, the stream id,
     * the frame type ({@code OPEN}, {@code DATA}, {@code COMPLETE}, {@code ERROR}, and the control stream's
     * {@code REQUEST_N}, {@code CANCEL}, {@code KEEPALIVE}, {@code REGION_CLOSED}), its flags, the payload's
     * length and its first 64 bytes in hex. For debugging: with it on, each frame costs a log call (and, while DEBUG
     * is enabled, a formatted line); with it off (the default), nothing.
     *
     * @param enable true to log under {@code io.rdmareactive.RdmaClient}, false for no logging (the default)
     */
    public RdmaClient wiretap(final boolean enable) {
        return with(config.withWiretap(enable ? RdmaClient.class.getName() : null));
    }

    /**
     * Logs every frame as {@link #wiretap(boolean) wiretap(true)} does, under a category of the caller's.
     *
     * @param category the logger's name, e.g. {@code "wire.orders"}; not blank
     */
    public RdmaClient wiretap(final String category) {
        if (java.util.Objects.requireNonNull(category, "category").isBlank()) {
            throw new IllegalArgumentException("a wiretap's logger category is not blank");
        }
        return with(config.withWiretap(category));
    }

    /**
     * Runs this client's connections on a runtime of the application's own instead of the process's shared one.
     *
     * @param runtime a running runtime (its provider, directory, idle strategy and memory limit then apply, not this
     *                client's)
     */
    public RdmaClient runOn(final RdmaRuntime runtime) {
        return with(config.withRuntime(java.util.Objects.requireNonNull(runtime, "runtime")));
    }

    /**
     * Adds a hook called with each connection this client makes, before {@link #connect()} hands it over (on the
     * thread that made it): e.g. to log {@link Connection#peer()} or to set up what every connection needs. Hooks
     * added earlier run first. If a hook throws, the connection is closed (its {@link #doOnDisconnected} hooks then
     * run) and {@link #connect()} fails with what the hook threw.
     *
     * @param hook called once per connection made
     */
    public RdmaClient doOnConnected(final java.util.function.Consumer<? super Connection> hook) {
        return new RdmaClient(config, hooks.onConnected(hook));
    }

    /**
     * Adds a hook called once when a connection this client made ends, however it ends: disposed of by either side,
     * the peer died or fell silent, or the runtime stopped. It runs on the thread that finished closing the
     * connection, once what it held is freed ({@link Connection#onDispose()} has completed). Hooks added earlier run
     * first; one that throws is logged, and the others still run.
     *
     * @param hook called once per connection that was handed to {@link #doOnConnected} hooks
     */
    public RdmaClient doOnDisconnected(final java.util.function.Consumer<? super Connection> hook) {
        return new RdmaClient(config, hooks.onDisconnected(hook));
    }

    /**
     * Connects: runs the handshake on a Reactor bounded-elastic thread, then pins the connection to one of the
     * runtime's event loops. Cancelling the returned {@code Mono} (for example through {@code timeout}) before it
     * answers closes the connection it was making.
     *
     * @return the connection, or an {@link RdmaConnectionException} that says why not; an
     *     {@link IllegalStateException} if this JVM lacks one of the options every JVM that uses rdma-reactive needs
     *     ({@code --enable-native-access=ALL-UNNAMED}, {@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED}),
     *     at once and naming it, or if the runtime given to {@link #runOn} was disposed or broke
     */
    public Mono<Connection> connect() {
        return Mono.<Connection>create(sink -> {
            // who owns the connection once made: the subscriber, or nobody (cancelled), decided once; a cancel runs
            // its hook only when the connection was not handed over, even if it races the hand-over
            final java.util.concurrent.atomic.AtomicReference<Object> made =
                new java.util.concurrent.atomic.AtomicReference<>();
            sink.onCancel(() -> {
                if (made.getAndSet(CANCELLED) instanceof Connection connection) {
                    connection.dispose(); // made, then dropped by the cancel: release its server slot and memory
                }
            });
            Schedulers.boundedElastic().schedule(() -> {
                final Connection connection;
                try {
                    connection = open();
                    hooks.connected(connection); // throws what a hook threw, the connection closed
                } catch (final RuntimeException ex) {
                    sink.error(ex);
                    return;
                } catch (final Error error) { // a broken installation (a missing class or library): say so, never hang
                    sink.error(Installation.failed("RdmaClient.connect()", error));
                    if (error instanceof VirtualMachineError) {
                        throw error;
                    }
                    return;
                }
                if (!made.compareAndSet(null, connection)) {
                    connection.dispose(); // nobody will ever see it: release its slot at the server and its memory
                    return;
                }
                sink.success(connection);
            });
        });
    }

    /**
     * Keeps a connection to the server, connecting again whenever it ends: the handle connects at once, in the
     * background, retrying a failed attempt as {@code retry} says (e.g.
     * {@code Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100)).maxBackoff(Duration.ofSeconds(5))}), and when an
     * established connection ends (the server went or was restarted, the peer fell silent past the liveness timeout)
     * it connects again at once, under the same {@code retry}. Calls made through the handle while there is no
     * connection wait for the next one, at most the connect timeout; calls in flight when a connection ends fail with
     * its {@link RdmaConnectionException} and are not repeated. {@link ReconnectingConnection#dispose()} stops it. The
     * client's hooks, wiretap and metrics apply to each connection it makes.
     *
     * @param retry when to try again after a failed attempt; if it gives up, the handle ends and its calls fail with
     *              the last failure
     * @return the handle, already connecting
     * @throws IllegalStateException as {@link #connect()} signals for the JVM's options, and if no
     *                               {@link #address(String)} was given
     */
    public ReconnectingConnection reconnect(final reactor.util.retry.Retry retry) {
        java.util.Objects.requireNonNull(retry, "retry");
        final String address = config.requireAddress("RdmaClient.reconnect()");
        io.rdmareactive.internal.JvmFlags.require();
        return new ReconnectingConnection(this, address, config.connectTimeout(), retry);
    }

    /** How much longer than its connect timeout {@link #connectNow()} waits: 30 s, for starting the runtime. */
    public static final Duration CONNECT_NOW_MARGIN = Duration.ofSeconds(30);

    /**
     * Connects and waits for it, at most the connect timeout ({@link #connectTimeout(Duration)}, default 10 s) plus
     * {@link #CONNECT_NOW_MARGIN} (30 s): long enough that a server that does not answer fails with the connect
     * timeout's own {@link RdmaConnectionException}, not with this bound. See {@link #connectNow(Duration)}.
     *
     * @return the connection
     * @throws RdmaConnectionException if it cannot connect (the failure {@link #connect()} signals, as it is)
     * @throws IllegalStateException   as {@link #connect()} signals, or if connecting outlasts the bound
     */
    public Connection connectNow() {
        return connectNow(config.connectTimeout().plus(CONNECT_NOW_MARGIN));
    }

    /**
     * Connects and waits for it: {@link #connect()} for code that blocks anyway (a {@code main}, a test). The failure
     * is thrown as {@link #connect()} signals it, not wrapped; a connect that outlasts the timeout is cancelled (the
     * connection it may still make is closed).
     *
     * @param timeout how long to wait; positive
     * @return the connection
     * @throws RdmaConnectionException  if it cannot connect (no server, refused, no answer within the connect
     *                                  timeout)
     * @throws IllegalStateException    as {@link #connect()} signals, or if connecting takes longer than
     *                                  {@code timeout} (the message names the address and the timeout), or if the
     *                                  thread is interrupted while it waits
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public Connection connectNow(final Duration timeout) {
        return Blocking.await(connect(), timeout,
            "RdmaClient.connectNow() to '" + (config.address() == null ? "(no address)" : config.address()) + "'");
    }

    /** {@link #connect()}'s mark for a call cancelled before its connection was handed over. */
    private static final Object CANCELLED = new Object();

    private Connection open() {
        final String address = config.requireAddress("RdmaClient.connect()");
        final RdmaRuntime runtime = config.acquireRuntime();
        try {
            final ProtocolConnection protocol = ConnectionEstablishment.connect(runtime.device, address,
                config.protocol(), config.connectTimeout(), config.secret());
            final DefaultConnection connection = new DefaultConnection(runtime, true, protocol, config, null);
            if (config.metrics()) {
                final reactor.core.Disposable meters = GlobalMeters.register("client", address, connection::counters);
                connection.onDispose().onErrorComplete().subscribe(null, null, meters::dispose);
            }
            return connection;
        } catch (final RuntimeException ex) {
            runtime.release();
            throw ex instanceof RdmaConnectionException ? ex
                : new RdmaConnectionException("cannot connect to '" + address + "': " + ex.getMessage(), ex);
        } catch (final Error error) {
            runtime.release();
            throw error;
        }
    }
}
