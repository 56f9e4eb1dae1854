package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.protocol.FrameCheck;
import io.rdmareactive.internal.protocol.FrameConsumer;
import io.rdmareactive.internal.protocol.FrameHeaderFlyweight;
import io.rdmareactive.internal.protocol.OpenFrameFlyweight;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import io.rdmareactive.internal.protocol.StreamActivity;
import io.rdmareactive.internal.reactive.ErrorFactory;
import io.rdmareactive.internal.reactive.InboundStream;
import io.rdmareactive.internal.reactive.OutboundStream;
import io.rdmareactive.internal.reactive.RingGuard;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.AtomicBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * A connection as the API shows it: the protocol connection, pinned to one event loop of its runtime, with stream 1
 * as the connection's own {@link #inbound()} / {@link #outbound()}, and the other streams used one request at a time
 * for fire-and-forget, request/response, request/stream and channel (clients open odd streams, servers even ones).
 *
 * <p>Threads: the loop alone polls, checks and delivers: inbound signals, decoding, the opening of streams and the
 * handlers run on it, inline in its duty cycle (the streams the protocol reports active are drained after the
 * completions were polled, before the cycle posts, so that an answer written in {@code onNext} leaves in the same
 * cycle). Outbound messages are encoded on the thread that emits them, inside the {@link RingGuard}; the loop posts
 * what was committed. Lifecycle changes (open, free, close) happen on the loop only.
 */
final class DefaultConnection implements Connection, StreamActivity, ErrorFactory {

    static final int DEFAULT_STREAM = 1;
    private static final Logger LOG = Loggers.getLogger(DefaultConnection.class);

    private final RdmaRuntime runtime;
    private final EventLoop loop;
    private final boolean client;
    private final ProtocolConnection protocol;
    private final RdmaConfig config;
    private final StreamHandler streamHandler;
    private final StreamChannel[] channels;
    private final RingGuard guard = new RingGuard();
    private final AtomicBoolean disposed = new AtomicBoolean();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    /** Set on the loop when release starts: stream drains stop touching the rings. */
    private volatile boolean released;
    /** Reads the OPEN frames the peer begins its requests with (loop only). */
    private final OpenReader openReader = new OpenReader();
    /** The streams the protocol reported active in this duty cycle, drained once it has polled (loop only). */
    private final boolean[] ready;
    private final int[] readyList;
    private int readyCount;
    private final BooleanSupplier isReleased;
    /** This connection's share of the runtime's reassembly budget. */
    private final io.rdmareactive.internal.protocol.ReassemblyBudget reassembly;

    /**
     * @param runtime a reference to the runtime that this connection now owns (released when it is disposed)
     */
    DefaultConnection(final RdmaRuntime runtime, final boolean client, final ProtocolConnection protocol,
                      final RdmaConfig config, final StreamHandler streamHandler) {
        this.runtime = runtime;
        this.loop = runtime.nextLoop();
        this.reassembly = runtime.reassembly.share(protocol.options().maxMessageLength()
            + io.rdmareactive.internal.protocol.CallHeaderFlyweight.LENGTH);
        this.isReleased = () -> released || loop.isClosed();
        this.client = client;
        this.protocol = protocol;
        this.config = config;
        this.streamHandler = streamHandler;
        final int streams = protocol.options().maxStreams();
        this.channels = new StreamChannel[streams];
        this.ready = new boolean[streams];
        this.readyList = new int[streams];
        for (int slot = 1; slot < streams; slot++) {
            channels[slot] = new StreamChannel(this, slot, protocol.stream(slot));
        }
        channels[DEFAULT_STREAM].openDefault(); // the connection's own stream is always open
        if (config.wiretap() != null) {
            protocol.tap(new Wiretap(config.wiretap(), (client ? "client " : "server ")
                + Integer.toHexString(System.identityHashCode(this)) + " " + protocol.queuePair().peerDescription()));
        }
        protocol.activity(this);
        runtime.loops.own(protocol.queuePair(), loop);
        if (!loop.execute(() -> loop.add(protocol))) {
            runtime.loops.disown(protocol.queuePair());
            throw new RdmaConnectionException("the runtime " + runtime.name() + " has stopped");
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

    /** Hands internal work to the connection's loop, for its next duty cycle; dropped once the loop stopped. */
    void onLoop(final Runnable task) {
        loop.execute(task);
    }

    // ------------------------------------------------------------------------------------------------ one-sided

    /** The regions registered on this connection and not yet freed. */
    private final java.util.Set<LocalRegion> regions = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger generations = new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public LocalRegion registerRegion(final long length, final RegionAccess... rights) {
        if (length <= 0 || length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a region's length must be 1 to " + Integer.MAX_VALUE + " bytes: "
                + length);
        }
        checkOpen();
        if (!runtime.retain()) {
            throw new RdmaConnectionException("the runtime " + runtime.name() + " has stopped");
        }
        final io.rdmareactive.spi.MemoryRegion allocated;
        try {
            allocated = protocol.allocateMemory(io.rdmareactive.ring.PageSize.roundUp(length));
        } catch (final RuntimeException ex) {
            runtime.release();
            throw new RdmaConnectionException("allocating a region of " + length + " bytes for the connection to "
                + peer() + " failed: " + ex.getMessage(), ex);
        }
        return register(new RegionMemory(allocated, runtime, length), rights);
    }

    @Override
    public LocalRegion registerRegion(final LocalRegion memoryOf, final RegionAccess... rights) {
        java.util.Objects.requireNonNull(memoryOf, "memoryOf");
        checkOpen();
        final RegionMemory memory = memoryOf.memory();
        if (memoryOf.isClosed() || !memory.retain()) {
            throw new IllegalStateException("the region whose memory is to be shared is closed: " + memoryOf);
        }
        return register(memory, rights);
    }

    private void checkOpen() {
        if (disposed.get() || protocol.isTerminated()) {
            throw connectionFailedNow();
        }
    }

    /** Registers {@code memory} (a reference this call now owns) in the connection's domain with {@code rights}. */
    private LocalRegion register(final RegionMemory memory, final RegionAccess... rights) {
        try {
            final java.util.Set<RegionAccess> granted = rights.length == 0 ? java.util.Set.of()
                : java.util.Set.copyOf(java.util.Arrays.asList(rights));
            final io.rdmareactive.spi.MemoryRegion registration = protocol.registerForPeer(memory.memory().memory(),
                io.rdmareactive.spi.Access.LOCAL_WRITE | RegionAccess.flags(granted));
            final LocalRegion region = new LocalRegion(this, memory, registration, memory.length(),
                generations.incrementAndGet(), granted, protocol.token());
            regions.add(region);
            if (disposed.get()) {
                region.deregister(); // the connection ended meanwhile: the peer never reaches it
            }
            return region;
        } catch (final RuntimeException ex) {
            memory.release();
            if (ex instanceof RdmaConnectionException || ex instanceof NullPointerException) {
                throw ex;
            }
            throw new RdmaConnectionException("registering a region of " + memory.length() + " bytes on the "
                + "connection to " + peer() + " failed: " + ex.getMessage(), ex);
        }
    }

    /**
     * A region was freed (its memory may live on in other connections' regions): a region the peer could reach is
     * announced closed, so that the peer refuses its later operations on it before posting them.
     */
    void onRegionFreed(final LocalRegion region) {
        regions.remove(region);
        if (!region.rights().isEmpty() && !released) {
            final int generation = region.descriptor().generation();
            loop.execute(() -> protocol.regionClosed(generation));
        }
    }

    /** The regions of the peer this side made a {@link RemoteRegion} of, by generation: whether each was closed. */
    private final java.util.concurrent.ConcurrentHashMap<Integer, RemoteRegion.PeerRegion> peerRegions =
        new java.util.concurrent.ConcurrentHashMap<>();

    /** The most regions of the peer's this side keeps a note of: a peer that announces more is not believed. */
    private static final int MAX_PEER_REGIONS = 65_536;

    @Override
    public void onPeerRegionClosed(final int generation) {
        RemoteRegion.PeerRegion region = peerRegions.get(generation);
        if (region == null && peerRegions.size() < MAX_PEER_REGIONS) {
            // a descriptor of it may still be on its way here: noted, so that one made of it later is stale at once
            region = peerRegions.computeIfAbsent(generation, ignored -> new RemoteRegion.PeerRegion());
        }
        if (region != null) {
            region.closed = true;
        }
    }

    @Override
    public RemoteRegion remoteRegion(final RegionDescriptor descriptor) {
        java.util.Objects.requireNonNull(descriptor, "descriptor");
        if (descriptor.connection() != protocol.peerToken()) {
            throw new RdmaRemoteAccessException(RdmaRemoteAccessException.Reason.OTHER_CONNECTION, "the descriptor "
                + descriptor + " did not come from the peer of this connection (" + peer() + "): a region's key is "
                + "valid on the connection it was registered on, no other");
        }
        return new RemoteRegion(this, descriptor, peerRegions.computeIfAbsent(descriptor.generation(),
            generation -> new RemoteRegion.PeerRegion()));
    }

    /** @return true if the connection's device runs atomics on the peer's memory */
    boolean supportsAtomics() {
        return protocol.supportsAtomics();
    }

    @Override
    public int maxOneSidedInFlight() {
        return protocol.maxOneSidedInFlight();
    }

    /** One-sided operations handed to the loop as tasks and not yet taken: a later one on the loop waits behind them. */
    private final java.util.concurrent.atomic.AtomicInteger oneSidedTasks = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Hands a one-sided operation to the loop, keeping the order of the hand-overs: on the loop's thread it is taken
     * now unless operations handed over as tasks still wait, otherwise it is a task behind them; refused when the
     * loop's queue is full or the loop stopped.
     */
    void submitOneSided(final OneSidedCall call) {
        if (loop.inLoop() && oneSidedTasks.get() == 0) {
            oneSidedOnLoop(call);
            return;
        }
        oneSidedTasks.incrementAndGet();
        if (!loop.tryExecute(call)) {
            oneSidedTasks.decrementAndGet();
            call.refused(loop.isClosed() ? connectionFailed("the connection was closed") : new RdmaStreamsBusyException(
                "the event loop " + loop.name() + " has too many tasks waiting; try again", (channels.length - 2) / 2));
        }
    }

    /** A one-sided operation handed over as a task reaches the loop. */
    void oneSidedTask(final OneSidedCall call) {
        oneSidedTasks.decrementAndGet();
        oneSidedOnLoop(call);
    }

    /** The connection takes a one-sided operation (loop), or refuses it. */
    void oneSidedOnLoop(final OneSidedCall call) {
        if (released) {
            call.refused(connectionFailedNow());
            return;
        }
        final Throwable closed = call.refusedAsClosed();
        if (closed != null) {
            call.refused(closed);
            return;
        }
        switch (protocol.submitOneSided(call)) {
            case 0 -> { }
            case 1 -> call.refused(new RdmaStreamsBusyException("4,096 one-sided operations of the connection to "
                + peer() + " wait or are in flight; wait for some to complete, or use RemoteRegion.execute, which "
                + "keeps their number bounded with back-pressure", (channels.length - 2) / 2));
            default -> call.refused(connectionFailedNow());
        }
    }

    private RdmaConnectionException connectionFailedNow() {
        return (RdmaConnectionException) connectionFailed(protocol.endReason() != null ? protocol.endReason() : "the connection was closed");
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
        return new RequestResponse<>(this, request, requestCodec, responseCodec);
    }

    /** @return the connection's loop (for {@link RequestResponse} and the call streams) */
    EventLoop loop() {
        return loop;
    }

    /** @return the longest message the connection carries */
    int maxMessageLength() {
        return protocol.options().maxMessageLength();
    }

    /** This side's call stream, while it is open or opening (loop only). */
    OutgoingCalls outgoingCalls;

    /**
     * Hands a call to the loop ({@link #callOnLoop}): now, on the loop's thread, or as a task; refused at once when the
     * loop's queue is nearly full or the loop stopped.
     */
    void submitCall(final RequestResponse.Call<?, ?> call) {
        if (loop.inLoop()) {
            call.run();
        } else if (!loop.tryExecute(call)) {
            call.fail(loop.isClosed() ? connectionFailed("the connection was closed") : busy());
        }
    }

    /** Sends a call on this side's call stream, opened now if there is none (loop). */
    void callOnLoop(final RequestResponse.Call<?, ?> call) {
        if (released || protocol.isTerminated()) {
            call.fail(connectionFailed(protocol.error() != null ? protocol.error() : "the connection was closed"));
            return;
        }
        OutgoingCalls calls = outgoingCalls;
        if (calls == null) {
            calls = new OutgoingCalls(this);
            outgoingCalls = calls;
        }
        calls.submit(call);
    }

    /** Calls of either side in flight or being served, and calls waiting to be sent (loop only). */
    private int callsInUse;

    /** Counts calls in and out of use (loop). */
    void callsInUse(final int change) {
        callsInUse += change;
    }

    /** @return how long a call waits for its answer (RdmaClient.requestTimeout) */
    java.time.Duration requestTimeout() {
        return config.requestTimeout();
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
     * Takes a free stream of this side's parity and opens it (on the loop). When every stream of this side is in use,
     * the request waits, in order, until one is free; at most {@link #MAX_WAITING_REQUESTS} wait, and beyond that, or
     * when so many requests wait for the loop that its bounded queue is nearly full, the request is refused at once
     * with {@link RdmaStreamsBusyException} (nothing was sent). A call cancelled after its stream opened gives the
     * stream back ({@link StreamOpen}).
     */
    private Mono<StreamChannel> open(final StreamKind kind) {
        return new StreamOpen(this, kind);
    }

    /**
     * Opens a stream for {@code opener} by running {@code task} (which calls {@link #openOnLoop}) on the
     * loop: now, on the loop's thread, or handed to it; refused at once when the loop's queue is nearly full or the
     * loop stopped.
     */
    void open(final Opener opener, final Runnable task) {
        if (loop.inLoop()) {
            task.run();
        } else if (!loop.tryExecute(task)) {
            opener.refused(loop.isClosed() ? connectionFailed("the connection was closed") : busy());
        }
    }

    /** Who asked for a stream: told on the loop that it is open (and opened locally), or why not. */
    interface Opener {
        void opened(StreamChannel channel);

        void refused(Throwable error);

        /** @return true if it no longer wants the stream (skipped while it waits) */
        boolean isCancelled();
    }

    /**
     * @return this side's view of its streams and of the requests waiting for one, for diagnostics (a snapshot read
     *     from any thread: fields the loop writes may be a moment old)
     */
    String describeStreams() {
        final StringBuilder text = new StringBuilder(toString()).append(client ? ", client" : ", server")
            .append(": ").append(waiting.size()).append(" requests waiting for a stream")
            .append(serveWaitingScheduled ? " (served next)" : "").append(released ? ", released" : "")
            .append(protocol.isTerminated() ? ", ended" : "")
            .append(outgoingCalls != null ? ", " + outgoingCalls : "").append(", calls in use: ").append(callsInUse);
        final String obstacle = protocol.parkingObstacle();
        text.append(obstacle == null ? "; may be parked" : "; not parked: " + obstacle);
        for (int slot = 1; slot < channels.length; slot++) {
            text.append("\n  ").append(channels[slot].describe());
        }
        return text.toString();
    }

    /** Requests that may wait for a free stream, per connection; more are refused. */
    static final int MAX_WAITING_REQUESTS = 1024;

    /** A request waiting for a free stream (loop only); a cancelled one is skipped. */
    private record WaitingRequest(StreamKind kind, Opener opener) {
    }

    private final java.util.ArrayDeque<WaitingRequest> waiting = new java.util.ArrayDeque<>();

    RdmaStreamsBusyException busy() {
        return new RdmaStreamsBusyException((channels.length - 2) / 2);
    }

    /** Opens a free stream of this side for {@code opener}, or queues it (loop). */
    void openOnLoop(final StreamKind kind, final Opener opener) {
        if (opener.isCancelled()) {
            return; // cancelled before the loop came to it: nothing to open, nobody to tell
        }
        if (released || protocol.isTerminated()) {
            opener.refused(connectionFailed(protocol.error() != null ? protocol.error() : "the connection was closed"));
            return;
        }
        if (waiting.isEmpty()) {
            for (int slot = client ? 3 : 2; slot < channels.length; slot += 2) {
                if (channels[slot].isFree() && channels[slot].isInboundIdle()) {
                    channels[slot].openLocally(kind);
                    opener.opened(channels[slot]);
                    return;
                }
            }
        }
        if (waiting.size() >= MAX_WAITING_REQUESTS) {
            // cancelled requests wait to be skipped; they must not make a live one look like one too many
            waiting.removeIf(request -> request.opener().isCancelled());
        }
        if (waiting.size() >= MAX_WAITING_REQUESTS) {
            opener.refused(busy());
            return;
        }
        waiting.addLast(new WaitingRequest(kind, opener));
        if (!serveWaitingScheduled) {
            // a pass over the streams is due: the requests ahead may all have been cancelled while streams came back,
            // and no stream that frees later would then serve this one
            serveWaitingScheduled = loop.execute(serveWaiting);
        }
    }

    /**
     * A stream became free (loop): a request the peer queued behind its last use can start now, or, on a stream of
     * this side, the first request waiting for one.
     */
    void onChannelFree(final StreamChannel channel, final boolean counted) {
        if (counted) {
            openRequestStreams--;
        }
        acceptRemoteOpen(channel);
        final boolean mine = (channel.slot() % 2 == 1) == client;
        if (!mine || released || protocol.isTerminated()) {
            return;
        }
        if (!waiting.isEmpty() && !serveWaitingScheduled) {
            // not inline: the stream's last frame is still being consumed, and the new use must not see it
            serveWaitingScheduled = loop.execute(serveWaiting);
        }
    }

    private boolean serveWaitingScheduled;
    private final Runnable serveWaiting = this::serveWaiting;

    /** Hands free streams of this side to the requests waiting for one, in order (loop). */
    private void serveWaiting() {
        serveWaitingScheduled = false;
        if (released || protocol.isTerminated()) {
            return;
        }
        for (int slot = client ? 3 : 2; slot < channels.length && !waiting.isEmpty(); slot += 2) {
            final StreamChannel channel = channels[slot];
            WaitingRequest request;
            while (channel.isFree() && channel.isInboundIdle() && (request = waiting.pollFirst()) != null) {
                if (!request.opener().isCancelled()) {
                    channel.openLocally(request.kind);
                    request.opener().opened(channel);
                }
            }
        }
    }

    /** The connection ended (loop): the requests still waiting for a stream fail. */
    private void failWaiting() {
        WaitingRequest request;
        while ((request = waiting.pollFirst()) != null) {
            request.opener().refused(connectionFailed(protocol.error() != null ? protocol.error()
                : "the connection was closed"));
        }
    }

    /** The peer may have opened {@code channel}'s stream (loop): serve its request if the stream is free. */
    void acceptRemoteOpen(final StreamChannel channel) {
        if (released || !channel.isFree() || channel.stream().peekType() != ProtocolStream.OPEN) {
            return;
        }
        final boolean mine = (channel.slot() % 2 == 1) == client;
        openReader.read(channel.stream());
        final int check = openReader.check;
        final StreamKind kind = check == FrameCheck.OK ? StreamKind.of(openReader.kind) : null;
        // a malformed OPEN still opens the use (its answer is an error); it grants nothing
        channel.openRemotely(kind != null ? kind : StreamKind.CHANNEL, kind != null ? openReader.initialRequestN : 0);
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
        if (kind == StreamKind.REQUEST_RESPONSE) {
            new ServedCalls(this, streamHandler).start(channel); // a call stream: many calls, each served alone
            return;
        }
        final Serving serving = new Serving(channel, channel.use(), kind);
        final Publisher<Void> handled;
        try {
            handled = streamHandler.handle(kind, channel, channel);
        } catch (final Throwable ex) {
            if (ex instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            serving.onError(ex);
            return;
        }
        if (handled == null) {
            serving.onError(new NullPointerException("the " + kind + " handler returned null, not a Publisher"));
            return;
        }
        handled.subscribe(serving);
    }

    /**
     * Subscribes to what a handler returned for one stream: when it ends, the stream's use is finished on the loop
     * (what the handler did not read is drained, what it did not answer is answered empty); a failure is logged. One
     * object per request, no operator chain.
     */
    private final class Serving implements reactor.core.CoreSubscriber<Void>, Runnable {
        private final StreamChannel channel;
        private final int use;
        private final StreamKind kind;

        Serving(final StreamChannel channel, final int use, final StreamKind kind) {
            this.channel = channel;
            this.use = use;
            this.kind = kind;
        }

        @Override
        public void onSubscribe(final org.reactivestreams.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(final Void ignored) {
            // a Publisher<Void> has no elements
        }

        @Override
        public void onError(final Throwable error) {
            // a stream cut short because the connection ended is the connection's news, told by onDispose()
            if (!(error instanceof RdmaConnectionException)) {
                LOG.warn("the {} handler failed", kind, error);
            } else if (LOG.isDebugEnabled()) {
                LOG.debug("the {} handler failed", kind, error);
            }
            loop.execute(this);
        }

        @Override
        public void onComplete() {
            loop.execute(this);
        }

        @Override
        public void run() {
            channel.finishServing(use);
        }
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
        long initialRequestN;

        void read(final ProtocolStream from) {
            stream = from;
            check = FrameCheck.WRONG_STREAM;
            kind = 0;
            initialRequestN = 0;
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
                open.wrap(buffer, index - FrameHeaderFlyweight.HEADER_LENGTH);
                kind = open.kind();
                initialRequestN = open.initialRequestN();
                if (!OpenFrameFlyweight.isKnownKind(kind)) {
                    check = FrameCheck.BAD_KIND; // rewritten since its check
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ streams

    /** @return messages granted to the peer ahead of consumption, at most */
    long prefetch() {
        return config.prefetch();
    }

    <T> InboundStream<T> newInbound(final StreamChannel channel, final Codec<T> codec, final long limit,
                                    final long granted) {
        return new InboundStream<>(protocol, channel.stream(), codec, loop, config.prefetch(), limit, granted, this,
            isReleased, channel.inboundEndedTask, runtime.counters, reassembly, maxWireMessage(channel));
    }

    <T> OutboundStream<T> newOutbound(final StreamChannel channel, final int openKind,
                                      final Publisher<? extends T> messages, final Codec<T> codec,
                                      final OutboundStream.Completion completion) {
        return OutboundStream.create(protocol, channel.stream(), openKind, messages, codec, loop, guard, this,
            completion, isReleased, runtime.counters, maxWireMessage(channel));
    }

    /**
     * @return the longest message {@code channel}'s current use carries: the connection's maximum, and on a call stream
     *     the call's header besides, so that a call carries a request or an answer of the connection's maximum
     */
    private int maxWireMessage(final StreamChannel channel) {
        final int max = protocol.options().maxMessageLength();
        return channel.isCallStream() ? max + io.rdmareactive.internal.protocol.CallHeaderFlyweight.LENGTH : max;
    }

    /** A stream's inbound ended (loop): the stream may be free, and a connection that ended may be disposed. */
    void onInboundEnded(final StreamChannel channel) {
        channel.onInboundEnded();
        if (protocol.isTerminated()) {
            disposeWhenIdle();
        }
    }

    // ------------------------------------------------------------------------------------------------ loop

    @Override
    public void onFramesArrived(final int stream) {
        markReady(stream);
    }

    @Override
    public void onProducerReady(final int stream) {
        markReady(stream);
    }

    private void markReady(final int stream) {
        if (!ready[stream]) {
            ready[stream] = true;
            readyList[readyCount++] = stream;
        }
    }

    /**
     * @return true while a stream is in use (loop): a request's stream is from its OPEN until both directions ended;
     *     the connection's own stream, open for the connection's life, while a send runs on it or a subscriber reads
     *     it. Counted, not scanned: the loop asks before it parks each idle connection.
     */
    @Override
    public boolean hasStreamsInUse() {
        return openRequestStreams > 0 || callsInUse > 0 || channels[DEFAULT_STREAM].isInUse();
    }

    /** Request streams open now, call streams aside (they count their calls instead; loop only). */
    private int openRequestStreams;

    /** A request stream's use began (loop). */
    void onChannelOpen() {
        openRequestStreams++;
    }

    /** @return true when no stream waits to be drained: the loop may park the connection */
    @Override
    public boolean isIdle() {
        return readyCount == 0;
    }

    /**
     * The protocol polled its completions (loop): drain each stream it reported, inline: deliver what arrived, look
     * for an OPEN, encode what waits for credit.
     */
    @Override
    public void onPolled() {
        for (int i = 0; i < readyCount; i++) {
            final int stream = readyList[i];
            ready[stream] = false;
            final StreamChannel channel = channels[stream];
            final long start = System.nanoTime();
            channel.signalInbound();
            if (stream != DEFAULT_STREAM) {
                acceptRemoteOpen(channel);
            }
            channel.signalOutbound();
            final long took = System.nanoTime() - start;
            if (took > STALL_THRESHOLD_NANOS) {
                onStall(stream, took);
            }
        }
        readyCount = 0;
    }

    /** How long a stream's drain (your subscriber, handler or codec, on the loop) may run before it counts as a stall. */
    static final long STALL_THRESHOLD_NANOS = java.time.Duration.ofMillis(
        Long.getLong("rdma.loop.stallThresholdMs", 50)).toNanos();
    private static final long STALL_LOG_INTERVAL_NANOS = 10_000_000_000L;
    private static final java.util.concurrent.atomic.AtomicLong LAST_STALL_LOG =
        new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - STALL_LOG_INTERVAL_NANOS);

    /** A stream's subscriber or handler held the loop: counted, and a warning at most every 10 s per process. */
    private void onStall(final int stream, final long nanos) {
        runtime.counters.loopStalls().increment();
        final long now = System.nanoTime();
        final long last = LAST_STALL_LOG.get();
        if (now - last >= STALL_LOG_INTERVAL_NANOS && LAST_STALL_LOG.compareAndSet(last, now)) {
            LOG.warn("stream {} of the connection to {} held its event loop {} for {} ms (every connection of the "
                + "loop waited): a subscriber, handler or codec blocks or works long on the loop; move that work off it "
                + "with publishOn(...) (counted in RdmaCounters.loopStalls; warned at most every 10 s)", stream, peer(),
                loop.name(), nanos / 1_000_000);
        }
    }

    /**
     * The connection ended (loop). Subscribers first get what already arrived (as far as they ask for it); the memory
     * is released once every inbound has ended, or at once if nobody reads.
     */
    @Override
    public void onTerminated() {
        if (protocol.error() != null) {
            runtime.counters.errors().increment();
        }
        signalAll();
        failWaiting();
        loop.execute(this::disposeWhenIdle);
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
        // no reason yet: this side disposed it, and the protocol has not closed (it does so after the streams end)
        return new RdmaConnectionException("the connection to " + peer() + " ended: " + (reason != null ? reason
            : "it was disposed on this side (Connection.dispose())"));
    }

    @Override
    public Throwable remoteError(final int code, final String message) {
        return new RdmaStreamException(code, "the peer's sender failed: " + message);
    }

    // ------------------------------------------------------------------------------------------------ disposal

    /**
     * Closes the connection, on its loop: the streams stop touching the rings, senders on other threads are kept out
     * ({@link RingGuard}); the loop then sends what was committed, waits until no sender is inside the rings, closes
     * the queue pair and frees the rings and registrations; the subscribers and {@link #onDispose()} learn the
     * outcome, and the connection gives its reference to the runtime back.
     */
    @Override
    public void dispose() {
        if (!disposed.compareAndSet(false, true)) {
            return;
        }
        if (!loop.execute(this::closeOnLoop)) {
            // the loop has stopped: its close closed the protocol already
            released = true;
            guard.close();
            finishDispose();
        }
    }

    private void closeOnLoop() {
        released = true;
        guard.close();
        signalAll(); // subscribers see the end
        failWaiting();
        loop.close(protocol, config.livenessTimeout().toNanos(), guard::isQuiescent, this::finishDispose);
    }

    private void finishDispose() {
        for (final LocalRegion region : regions) {
            region.deregister(); // the peer's access ends with the connection; the memory stays the region's
        }
        final String error = protocol.error();
        runtime.loops.disown(protocol.queuePair());
        runtime.release(() -> {
            if (error != null) {
                closed.tryEmitError(connectionFailed(error));
            } else {
                closed.tryEmitEmpty();
            }
        });
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
