package io.rdmareactive.perf.compare.transport;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaRuntime;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

/**
 * rdma-reactive through its public {@code Flux} API: one {@link Connection} per stream. The client offers into a
 * unicast {@link Sinks.Many} with a bounded queue that {@code Outbound.send} drains as the peer grants credit; the
 * server's consumer is a subscriber of {@code Inbound.receiveViews()} (zero-copy views) and its echo sends copies of
 * the views back. The process's runtime, shared by both sides, does the rest: its event loop (one on a machine of
 * fewer than 4 cores) polls, delivers and posts; messages are encoded on the thread that emits them. Over verbs with
 * two devices named ({@link VerbsNodes}), the transport has a runtime on each: servers run on the one whose device
 * owns their IP, clients on the one whose device the route to their server leaves through.
 */
public final class ReactiveTransport implements Transport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int QUEUED_BYTES = 4 << 20;
    /** The most elements Outbound.send requests ahead of encoding them (OutboundStream.BATCH in core). */
    private static final int SEND_BATCH = 64;
    private static final AtomicInteger SERVERS = new AtomicInteger();

    private final String provider;
    private final Idle idle;
    private final Path directory;
    private final VerbsNodes verbs;
    /** With two devices: the runtime on node A's (servers) and on node B's (clients); else null, the shared one. */
    private final RdmaRuntime serverRuntime;
    private final RdmaRuntime clientRuntime;

    /**
     * @param provider  {@code shm} or {@code verbs}
     * @param directory the shared-memory provider's directory
     * @param address   the server's address for verbs (IP:port), {@code null} for shm (a name is made up)
     */
    public ReactiveTransport(final String provider, final Idle idle, final Path directory, final String address) {
        this(provider, idle, directory, address == null ? null : VerbsNodes.oneDevice(address));
    }

    /**
     * Over verbs.
     *
     * @param provider {@code verbs}
     * @param verbs    where servers listen and which devices serve and connect. With two devices, a runtime of this
     *                 transport's own on each (its idle strategy), disposed of when it closes
     */
    public ReactiveTransport(final String provider, final Idle idle, final VerbsNodes verbs) {
        this(provider, idle, null, java.util.Objects.requireNonNull(verbs, "verbs"));
    }

    private ReactiveTransport(final String provider, final Idle idle, final Path directory, final VerbsNodes verbs) {
        this.provider = provider;
        this.idle = idle;
        this.directory = directory;
        this.verbs = verbs;
        if (verbs != null && verbs.twoDevices()) {
            this.serverRuntime = runtime(verbs.serverDevice());
            try {
                this.clientRuntime = runtime(verbs.clientDevice());
            } catch (final RuntimeException | Error ex) {
                serverRuntime.dispose();
                throw ex;
            }
        } else {
            this.serverRuntime = null;
            this.clientRuntime = null;
        }
    }

    private RdmaRuntime runtime(final String device) {
        return RdmaRuntime.builder().provider(provider).device(device).idleStrategy(idle.spec()).build();
    }

    @Override
    public String name() {
        return "rr-" + provider + "-flux";
    }

    @Override
    public String setup() {
        return "rdma-reactive public Flux API over the '" + provider + "' provider: Outbound.send of a unicast sink "
            + "(bounded queue) on the client, Inbound.receiveViews() on the receiving side; one connection per "
            + "stream; " + (serverRuntime == null ? "client and server share the process's runtime (its event loops, "
            + idle + ")" : "servers on a runtime on " + verbs.serverDevice() + ", clients on one on "
            + verbs.clientDevice() + " (each with its event loops, " + idle + "): every connection crosses the link")
            + "; the client thread encodes each message into the send ring (on shm, straight into the server's "
            + "receive ring)";
    }

    /**
     * A server and a client configured as this transport's sessions are (provider, directory or verbs address, idle
     * strategy, largest message), at an address of their own, for the workloads that use the public API directly
     * (request-response, connections). The caller adds its handlers, binds, connects and closes.
     *
     * @param server the server, without handlers
     * @param client a client of that server
     */
    public record Endpoints(RdmaServer server, RdmaClient client) {
    }

    /** @return a fresh server address and a client for it, for messages up to {@code messageLength} bytes */
    public Endpoints endpoints(final int messageLength) {
        final String where = nextAddress();
        return new Endpoints(server(where, messageLength), client(where, messageLength));
    }

    /** @return the provider, {@code shm} or {@code verbs} */
    public String provider() {
        return provider;
    }

    /** @return the shared-memory provider's directory, or null for verbs */
    public Path directory() {
        return directory;
    }

    /** @return the verbs base address (IP:port), or null for shm */
    public String verbsAddress() {
        return verbs == null ? null : verbs.address();
    }

    /** @return where the verbs servers listen and which devices serve and connect, or null for shm */
    public VerbsNodes verbsNodes() {
        return verbs;
    }

    /** @return the idle strategy of the run */
    public Idle idle() {
        return idle;
    }

    /** @return a server address no other server of this JVM has used (a new port for verbs, a new name for shm) */
    public String nextAddress() {
        return verbs != null ? verbs.nextServerAddress()
            : "perf-" + ProcessHandle.current().pid() + "-" + SERVERS.incrementAndGet();
    }

    /** @return a server at {@code where}, configured as this transport's are, without handlers */
    public RdmaServer server(final String where, final int messageLength) {
        return serving(where).maxMessageLength(Math.max(messageLength, 4096));
    }

    /** @return a client of the server at {@code where}, configured as this transport's are */
    public RdmaClient client(final String where, final int messageLength) {
        return connecting(where).maxMessageLength(Math.max(messageLength, 4096));
    }

    /**
     * @return a server at {@code where} with this transport's provider, idle strategy and shm directory, or, with two
     *     devices, on the runtime of the device that owns {@code where}'s IP; its message length and rings left as
     *     they are by default
     */
    public RdmaServer serving(final String where) {
        final RdmaServer server = RdmaServer.create().provider(provider).address(where).idleStrategy(idle.spec());
        if (verbs == null) {
            return server.directory(directory);
        }
        return serverRuntime == null ? server : server.runOn(verbs.onClientNode(where) ? clientRuntime
            : serverRuntime);
    }

    /**
     * @return a client of {@code where} configured as {@link #serving} configures its server: with two devices, on
     *     the runtime of the device the route to {@code where} leaves through (the other node's)
     */
    public RdmaClient connecting(final String where) {
        final RdmaClient client = RdmaClient.create().provider(provider).address(where).idleStrategy(idle.spec());
        if (verbs == null) {
            return client.directory(directory);
        }
        return clientRuntime == null ? client : client.runOn(verbs.onClientNode(where) ? serverRuntime
            : clientRuntime);
    }

    @Override
    public Session open(final SessionSpec spec) {
        final Endpoints endpoints = endpoints(spec.messageLength());
        final AtomicInteger accepted = new AtomicInteger();
        final RdmaServer server = endpoints.server()
            .handle((in, out) -> {
                final int stream = accepted.getAndIncrement();
                if (spec.echo()) {
                    final BufferPool echoes = new BufferPool(8, spec.messageLength());
                    return out.send(in.receiveViews().map(view -> echoes.copyOf(view, 0, view.capacity())),
                        Codecs.DIRECT_BUFFER);
                }
                final MessageHandler consumer = spec.consumers().apply(stream);
                return in.receiveViews().doOnNext(view -> consumer.onMessage(view, 0, view.capacity())).then();
            });
        final RdmaClient client = endpoints.client();
        final DisposableServer bound = server.bind().block(TIMEOUT);
        final List<Connection> connections = new ArrayList<>();
        final List<FluxLink> links = new ArrayList<>();
        try {
            for (int stream = 0; stream < spec.streams(); stream++) {
                final Connection connection = client.connect().block(TIMEOUT);
                connections.add(connection);
                Accepted.await(accepted, stream + 1, TIMEOUT);
                links.add(new FluxLink(connection, spec));
            }
        } catch (final RuntimeException ex) {
            links.forEach(FluxLink::close);
            connections.forEach(Connection::dispose);
            bound.dispose();
            throw ex;
        }
        return new Session() {
            @Override
            public Link link(final int stream) {
                return links.get(stream);
            }

            @Override
            public void close() {
                links.forEach(FluxLink::close);
                for (final Connection connection : connections) {
                    connection.dispose();
                    connection.onDispose().onErrorComplete().block(TIMEOUT);
                }
                bound.dispose();
                bound.onDispose().onErrorComplete().block(TIMEOUT);
            }
        };
    }

    /** Disposes of the two devices' runtimes, if any; every session closes its own connections and server. */
    @Override
    public void close() {
        if (serverRuntime != null) {
            clientRuntime.dispose();
            serverRuntime.dispose();
        }
    }

    /** A stream's client side: a bounded sink the connection's send drains, and the echoes' subscriber. */
    private static final class FluxLink implements Link {

        private final Sinks.Many<DirectBuffer> messages;
        private final BufferPool pool;
        private final Disposable sending;
        private final Disposable receiving;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        FluxLink(final Connection connection, final SessionSpec spec) {
            final int queued = Integer.highestOneBit(Math.clamp(QUEUED_BYTES / spec.messageLength(), 2, 256));
            this.messages = Sinks.many().unicast().onBackpressureBuffer(Queues.<DirectBuffer>get(queued).get());
            // a buffer must not be reused before the send has encoded it: between the offer and the encoding it can
            // wait in this sink's queue and in the send's own queue of requested elements (Outbound.send asks for
            // at most 64 at a time), and a message larger than a frame is read until its last fragment is in the ring
            // (DIRECT_BUFFER's encoded bytes are the buffer itself), so the pool holds more than all three
            this.pool = new BufferPool(queued + SEND_BATCH + 8, spec.messageLength());
            this.sending = connection.outbound().send(messages.asFlux(), Codecs.DIRECT_BUFFER)
                .subscribe(null, failure::set);
            this.receiving = spec.echo()
                ? connection.inbound().receiveViews()
                    .subscribe(view -> spec.replies().onMessage(view, 0, view.capacity()), failure::set)
                : Flux.never().subscribe();
        }

        @Override
        public boolean offer(final DirectBuffer buffer, final int offset, final int length) {
            final Throwable cause = failure.get();
            if (cause != null) {
                throw new IllegalStateException("the connection failed: " + cause, cause);
            }
            final Sinks.EmitResult result = messages.tryEmitNext(pool.copyOf(buffer, offset, length));
            if (result.isSuccess()) {
                return true;
            }
            pool.undo();
            if (result == Sinks.EmitResult.FAIL_OVERFLOW) {
                return false;
            }
            throw new IllegalStateException("cannot send: " + result);
        }

        @Override
        public int poll() {
            return 0;
        }

        void close() {
            messages.tryEmitComplete();
            sending.dispose();
            receiving.dispose();
        }
    }

    /** A ring of reusable buffers, so that sending allocates nothing per message. */
    static final class BufferPool {

        private final UnsafeBuffer[] views;
        private final byte[][] arrays;
        private int next;

        BufferPool(final int size, final int messageLength) {
            views = new UnsafeBuffer[size];
            arrays = new byte[size][];
            for (int i = 0; i < size; i++) {
                arrays[i] = new byte[messageLength];
                views[i] = new UnsafeBuffer(arrays[i]);
            }
        }

        DirectBuffer copyOf(final DirectBuffer source, final int offset, final int length) {
            final int index = next;
            next = index + 1 == views.length ? 0 : index + 1;
            final UnsafeBuffer view = views[index];
            view.wrap(arrays[index], 0, length);
            source.getBytes(offset, arrays[index], 0, length);
            return view;
        }

        void undo() {
            next = next == 0 ? views.length - 1 : next - 1;
        }
    }
}
