package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.internal.driver.IdleStrategies;
import io.rdmareactive.internal.protocol.FrameCheck;
import io.rdmareactive.internal.protocol.FrameConsumer;
import io.rdmareactive.internal.protocol.FrameHeaderFlyweight;
import io.rdmareactive.internal.protocol.OpenFrameFlyweight;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import io.rdmareactive.internal.protocol.StreamActivity;
import io.rdmareactive.internal.reactive.ConnectionWorker;
import io.rdmareactive.internal.reactive.ErrorFactory;
import io.rdmareactive.internal.reactive.InboundStream;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.AtomicBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Sinks;

/**
 * A connection as the API shows it: the protocol connection, served by the runtime's driver, with stream 1 as the
 * connection's own {@link #inbound()} / {@link #outbound()}, and the other streams used one request at a time for
 * fire-and-forget, request/response, request/stream and channel (clients open odd streams, servers even ones).
 * Reactive work runs on the connection's own {@link ConnectionWorker} thread, never on the driver thread; handing
 * work to it allocates nothing.
 */
final class DefaultConnection implements Connection, StreamActivity, ErrorFactory {

    static final int DEFAULT_STREAM = 1;

    private final RdmaRuntime runtime;
    private final boolean ownsRuntime;
    private final boolean client;
    private final ProtocolConnection protocol;
    private final RdmaConfig config;
    private final StreamHandler streamHandler;
    private final StreamChannel[] channels;
    private static final AtomicInteger WORKERS = new AtomicInteger();

    private final ConnectionWorker worker;
    private final AtomicBoolean disposed = new AtomicBoolean();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    /** Set on the worker when release starts: stream drains, which run on the worker too, stop touching the rings. */
    private volatile boolean released;
    /** Reads the OPEN frames the peer begins its requests with (worker only). */
    private final OpenReader openReader = new OpenReader();

    DefaultConnection(final RdmaRuntime runtime, final boolean ownsRuntime, final boolean client,
                      final ProtocolConnection protocol, final RdmaConfig config, final StreamHandler streamHandler) {
        this.runtime = runtime;
        this.ownsRuntime = ownsRuntime;
        this.client = client;
        this.protocol = protocol;
        this.config = config;
        this.streamHandler = streamHandler;
        final int streams = protocol.options().maxStreams();
        this.worker = new ConnectionWorker("rdma-worker-" + runtime.name + "-" + WORKERS.incrementAndGet(), streams,
            IdleStrategies.parse(config.idle()));
        this.channels = new StreamChannel[streams];
        for (int slot = 1; slot < streams; slot++) {
            channels[slot] = new StreamChannel(this, slot, protocol.stream(slot));
        }
        channels[DEFAULT_STREAM].openRemotely(); // the connection's own stream is always open
        protocol.activity(this);
        if (!runtime.driver.add(protocol)) {
            worker.close();
            throw new RdmaConnectionException("the driver's command queue is full; it is overloaded or stopped");
        }
    }

    @Override
    public Inbound inbound() {
        return channels[DEFAULT_STREAM];
    }

    @Override
    public Outbound outbound() {
        return channels[DEFAULT_STREAM];
    }

    @Override
    public CodecRegistry codecs() {
        return config.codecs();
    }

    @Override
    public RdmaCounters counters() {
        return RdmaCounters.of(runtime.counters);
    }

    @Override
    public String peer() {
        return protocol.queuePair().peerDescription();
    }

    @Override
    public Mono<Void> onDispose() {
        return closed.asMono();
    }

    /** Hands internal work to the connection's worker; dropped once the connection is disposed. */
    void onWorker(final Runnable task) {
        worker.execute(task);
    }

    // ------------------------------------------------------------------------------------------------ requests

    @Override
    public <Q> Mono<Void> fireAndForget(final Q request, final Codec<Q> codec) {
        return open(StreamKind.FIRE_AND_FORGET).flatMap(channel -> {
            channel.receive(io.rdmareactive.codec.Codecs.BYTE_ARRAY).subscribe(ignored -> { }, ignored -> { });
            return channel.send(Mono.just(request), codec);
        });
    }

    @Override
    public <Q, R> Mono<R> requestResponse(final Q request, final Codec<Q> requestCodec, final Codec<R> responseCodec) {
        return open(StreamKind.REQUEST_RESPONSE).flatMap(channel -> {
            channel.send(Mono.just(request), requestCodec).subscribe(null, ignored -> { });
            return channel.receive(responseCodec).next();
        }).timeout(config.requestTimeout(), Mono.error(() -> new java.util.concurrent.TimeoutException(
            "no answer from " + peer() + " within " + config.requestTimeout() + " (RdmaClient.requestTimeout)")));
    }

    @Override
    public <Q, R> Flux<R> requestStream(final Q request, final Codec<Q> requestCodec, final Codec<R> responseCodec) {
        return open(StreamKind.REQUEST_STREAM).flatMapMany(channel -> {
            channel.send(Mono.just(request), requestCodec).subscribe(null, ignored -> { });
            return channel.receive(responseCodec);
        });
    }

    @Override
    public <Q, R> Flux<R> requestChannel(final Publisher<? extends Q> requests, final Codec<Q> requestCodec,
                                         final Codec<R> responseCodec) {
        return open(StreamKind.CHANNEL).flatMapMany(channel -> {
            channel.send(requests, requestCodec).subscribe(null, ignored -> { });
            return channel.receive(responseCodec);
        });
    }

    /**
     * Takes a free stream of this side's parity and opens it (on the worker). Refused with
     * {@link RdmaStreamsBusyException} at once if so many requests already wait for the worker that its bounded queue
     * is nearly full.
     */
    private Mono<StreamChannel> open(final StreamKind kind) {
        return Mono.create(sink -> {
            if (!worker.tryExecute(() -> openOnWorker(kind, sink))) {
                sink.error(worker.isClosed() ? connectionFailed("the connection was closed")
                    : new RdmaStreamsBusyException((channels.length - 2) / 2));
            }
        });
    }

    private void openOnWorker(final StreamKind kind, final MonoSink<StreamChannel> sink) {
        if (released || protocol.isTerminated()) {
            sink.error(connectionFailed(protocol.error() != null ? protocol.error() : "the connection was closed"));
            return;
        }
        for (int slot = client ? 3 : 2; slot < channels.length; slot += 2) {
            if (channels[slot].isFree() && channels[slot].isInboundIdle()) {
                channels[slot].openLocally(kind);
                sink.success(channels[slot]);
                return;
            }
        }
        sink.error(new RdmaStreamsBusyException((channels.length - 2) / 2));
    }

    /** A stream became free (worker): a request the peer queued behind its last use can start now. */
    void onChannelFree(final StreamChannel channel) {
        acceptRemoteOpen(channel);
    }

    /** The peer may have opened {@code channel}'s stream (worker): serve its request if the stream is free. */
    void acceptRemoteOpen(final StreamChannel channel) {
        if (released || !channel.isFree() || channel.stream().peekType() != ProtocolStream.OPEN) {
            return;
        }
        final boolean mine = (channel.slot() % 2 == 1) == client;
        openReader.read(channel.stream());
        final int check = openReader.check;
        final StreamKind kind = check == FrameCheck.OK ? StreamKind.of(openReader.kind) : null;
        channel.openRemotely();
        if (kind == null) {
            // a malformed OPEN (an unknown kind among others) is a protocol error: the driver ends the connection
            channel.stream().consumerError("OPEN: " + FrameCheck.describe(check));
        }
        if (kind == null || mine || streamHandler == null) {
            final String why = kind == null ? "malformed OPEN frame: " + FrameCheck.describe(check)
                : mine ? "the peer opened a stream that is this side's to open" : "this side serves no requests";
            channel.send(Flux.error(new IllegalStateException(why)), io.rdmareactive.codec.Codecs.BYTE_ARRAY)
                .subscribe(null, ignored -> { });
            channel.receive(io.rdmareactive.codec.Codecs.BYTE_ARRAY).subscribe(ignored -> { }, ignored -> { });
            return;
        }
        final int use = channel.use();
        Flux.defer(() -> streamHandler.handle(kind, channel, channel))
            .doFinally(signal -> worker.execute(() -> channel.finishServing(use)))
            .subscribe(null, error -> System.getLogger(DefaultConnection.class.getName())
                // a stream cut short because the connection ended is the connection's news, told by onDispose()
                .log(error instanceof RdmaConnectionException ? System.Logger.Level.DEBUG
                    : System.Logger.Level.WARNING, "the " + kind + " handler failed", error));
    }

    /**
     * Takes the OPEN at the head of a stream's ring and checks it ({@link ProtocolStream#checkFrame}: its
     * {@link OpenFrameFlyweight} body, its stream id, the use it begins), then reads its kind through the flyweight.
     */
    private static final class OpenReader implements FrameConsumer {
        private final OpenFrameFlyweight open = new OpenFrameFlyweight();
        private ProtocolStream stream;
        int check;
        int kind;

        void read(final ProtocolStream from) {
            stream = from;
            check = FrameCheck.WRONG_STREAM;
            kind = 0;
            from.poll(this);
            stream = null;
        }

        @Override
        public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                            final byte flags) {
            if (type != ProtocolStream.OPEN) {
                return; // the peer rewrote the frame since it was peeked: WRONG_STREAM
            }
            check = stream.checkFrame(buffer, index, length, type);
            if (check == FrameCheck.OK) {
                kind = open.wrap(buffer, index - FrameHeaderFlyweight.HEADER_LENGTH).kind();
                if (!OpenFrameFlyweight.isKnownKind(kind)) {
                    check = FrameCheck.BAD_KIND; // rewritten since its check
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ streams

    <T> InboundStream<T> newInbound(final StreamChannel channel, final Codec<T> codec) {
        return new InboundStream<>(protocol, channel.stream(), codec, worker, config.prefetch(), this,
            () -> released, () -> onInboundEnded(channel), runtime.counters);
    }

    <T> OutboundStream<T> newOutbound(final StreamChannel channel, final int openKind,
                                      final Publisher<? extends T> messages, final Codec<T> codec,
                                      final MonoSink<Void> sink) {
        return OutboundStream.create(protocol, channel.stream(), openKind, messages, codec, worker, this, sink,
            () -> released, runtime.counters);
    }

    private void onInboundEnded(final StreamChannel channel) {
        channel.onInboundEnded();
        if (protocol.isTerminated()) {
            disposeWhenIdle();
        }
    }

    // ------------------------------------------------------------------------------------------------ driver

    @Override
    public void onFramesArrived(final int stream) {
        final StreamChannel channel = channels[stream];
        channel.signalInbound();
        if (stream != DEFAULT_STREAM) {
            channel.scheduleOpenCheck(); // one preallocated task per stream, scheduled once at a time
        }
    }

    @Override
    public void onProducerReady(final int stream) {
        channels[stream].signalOutbound();
    }

    /**
     * The connection ended (driver thread). Subscribers first get what already arrived (as far as they ask for it);
     * the memory is released once every inbound has ended, or at once if nobody reads.
     */
    @Override
    public void onTerminated() {
        if (protocol.error() != null) {
            runtime.counters.errors().increment();
        }
        signalAll();
        worker.execute(this::disposeWhenIdle);
    }

    private void signalAll() {
        for (int slot = 1; slot < channels.length; slot++) {
            channels[slot].signalInbound();
            channels[slot].signalOutbound();
        }
    }

    private void disposeWhenIdle() {
        for (int slot = 1; slot < channels.length; slot++) {
            if (!channels[slot].isInboundIdle()) {
                return;
            }
        }
        dispose();
    }

    @Override
    public Throwable connectionFailed(final String reason) {
        return new RdmaConnectionException("the connection to " + peer() + " ended: " + reason);
    }

    @Override
    public Throwable remoteError(final int code, final String message) {
        return new RdmaStreamException(code, "the peer's sender failed: " + message);
    }

    // ------------------------------------------------------------------------------------------------ disposal

    /**
     * Closes the connection: on the worker (after any drain running there) the streams stop touching the rings; the
     * driver then sends what was committed, closes the queue pair and frees the rings and registrations; the
     * subscribers and {@link #onDispose()} learn the outcome.
     */
    @Override
    public void dispose() {
        if (!disposed.compareAndSet(false, true)) {
            return;
        }
        worker.execute(() -> {
            released = true;
            signalAll(); // subscribers see the end
            final Runnable afterClose = () -> worker.execute(this::finishDispose);
            if (!runtime.driver.close(protocol, config.livenessTimeout().toNanos(), afterClose)) {
                protocol.close(); // the driver is gone: nothing else can be touching the connection
                afterClose.run();
            }
        });
    }

    private void finishDispose() {
        final String error = protocol.error();
        worker.close();
        if (ownsRuntime) {
            runtime.close();
        }
        if (error != null) {
            closed.tryEmitError(connectionFailed(error));
        } else {
            closed.tryEmitEmpty();
        }
    }

    @Override
    public boolean isDisposed() {
        return disposed.get();
    }

    @Override
    public String toString() {
        return "Connection{" + peer() + '}';
    }
}
