package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import io.rdmareactive.internal.protocol.ProtocolStream;
import io.rdmareactive.internal.reactive.InboundStream;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One stream slot of a connection, used once per request: opened (by this side with an OPEN frame, or by the peer),
 * carries one inbound and one outbound, and is free again when both have ended. State changes happen on the
 * connection's event loop.
 */
final class StreamChannel implements Inbound, Outbound {

    private final DefaultConnection owner;
    private final int slot;
    private final ProtocolStream stream;
    private final AtomicReference<InboundStream<?>> inbound = new AtomicReference<>();
    private final AtomicReference<OutboundStream<?>> outbound = new AtomicReference<>();
    private boolean open;
    private int uses;
    private boolean inboundDone;
    private boolean outboundDone;
    /** The current use counts as a request stream in use (loop). */
    private boolean countedUse;
    /** The current use is a call stream: set with the use, read by the stream's send and reader. */
    private volatile boolean callStream;
    private volatile int pendingOpenKind;
    /** What the inbound of the current use may receive without a REQUEST_N, and in all (set with the use). */
    private volatile long inboundGranted;
    private volatile long inboundLimit = Long.MAX_VALUE;

    StreamChannel(final DefaultConnection owner, final int slot, final ProtocolStream stream) {
        this.owner = owner;
        this.slot = slot;
        this.stream = stream;
        this.inboundEndedTask = () -> owner.onInboundEnded(this);
    }

    int slot() {
        return slot;
    }

    ProtocolStream stream() {
        return stream;
    }

    /** @return this slot's state, for diagnostics ({@link DefaultConnection#describeStreams()}) */
    String describe() {
        final InboundStream<?> in = inbound.get();
        final OutboundStream<?> out = outbound.get();
        return "stream " + slot + ": " + (open ? "open" : "free") + ", use " + uses + " (protocol " + stream.use() + ")"
            + (inboundDone ? ", inbound done" : "") + (outboundDone ? ", outbound done" : "")
            + ", inbound " + (in == null ? "none" : in) + ", outbound " + (out == null ? "none" : out)
            + (pendingOpenKind != 0 ? ", OPEN not sent" : "") + ", next frame type " + stream.peekType()
            + ", peer demand " + stream.peerDemand();
    }

    boolean isFree() {
        return !open;
    }

    /**
     * This side opens the stream: its first send carries the OPEN frame, which grants the answer's demand at once (a
     * response: 1; a stream: the prefetch; a fire-and-forget: none), and the one request message of a
     * fire-and-forget, request/response or request/stream goes out without waiting for a REQUEST_N. (Loop.)
     */
    void openLocally(final StreamKind kind) {
        final long answers = kind == StreamKind.FIRE_AND_FORGET ? 0 : owner.prefetch();
        final long requests = switch (kind) {
            case CHANNEL -> 0;
            case REQUEST_RESPONSE -> CallHeaderFlyweight.OPEN_DEMAND;
            case FIRE_AND_FORGET, REQUEST_STREAM -> 1;
        };
        begin(requests, answers, kind != StreamKind.REQUEST_RESPONSE);
        callStream = kind == StreamKind.REQUEST_RESPONSE;
        inboundGranted = answers;
        inboundLimit = kind == StreamKind.FIRE_AND_FORGET ? answers : Long.MAX_VALUE;
        pendingOpenKind = kind.code();
    }

    /**
     * The peer opened the stream with an OPEN of that kind granting {@code initialRequestN} answers; the one request
     * message of a fire-and-forget, request/response or request/stream arrives without a REQUEST_N. (Loop.)
     */
    void openRemotely(final StreamKind kind, final long initialRequestN) {
        begin(initialRequestN, 0, kind != StreamKind.REQUEST_RESPONSE);
        callStream = kind == StreamKind.REQUEST_RESPONSE;
        if (kind == StreamKind.REQUEST_RESPONSE) {
            inboundGranted = CallHeaderFlyweight.OPEN_DEMAND;
            inboundLimit = Long.MAX_VALUE;
        } else {
            final boolean oneRequest = kind != StreamKind.CHANNEL;
            inboundGranted = oneRequest ? 1 : 0;
            inboundLimit = oneRequest ? 1 : Long.MAX_VALUE;
        }
        pendingOpenKind = 0;
    }

    /** The connection's own stream, open for the connection's life, its demand granted by REQUEST_N. (Loop.) */
    void openDefault() {
        begin(0, 0, false);
        callStream = false;
        inboundGranted = 0;
        inboundLimit = Long.MAX_VALUE;
        pendingOpenKind = 0;
    }

    /**
     * @param counted whether the use counts as a request stream in use ({@link DefaultConnection#hasStreamsInUse}); a
     *                call stream counts its calls instead
     */
    private void begin(final long implicitPeerDemand, final long openRequestN, final boolean counted) {
        if (slot != DefaultConnection.DEFAULT_STREAM) {
            stream.beginUse(implicitPeerDemand, openRequestN);
        }
        uses++;
        countedUse = counted;
        if (counted) {
            owner.onChannelOpen();
        }
        open = true;
        inboundDone = false;
        outboundDone = false;
        inbound.set(null);
        outbound.set(null);
    }

    // ------------------------------------------------------------------------------------------------ Inbound

    @Override
    public <T> Flux<T> receive(final Codec<T> codec) {
        return new ChannelReceive<>(this, codec);
    }

    /** Makes {@code subscriber} the reader of this use ({@link ChannelReceive}), or tells it that one reads already. */
    <T> void subscribeInbound(final Codec<T> codec, final reactor.core.CoreSubscriber<? super T> subscriber) {
        final InboundStream<T> created = owner.newInbound(this, codec, inboundLimit, inboundGranted);
        if (!inbound.compareAndSet(null, created)) {
            reactor.core.publisher.Operators.error(subscriber, new IllegalStateException("this stream's inbound already "
                + "has a subscriber; share one Flux (publish(), cache()) if several need its messages"));
            return;
        }
        created.subscribe(subscriber);
    }

    @Override
    public <T> Flux<T> receive(final Class<T> type) {
        return receive(owner.codecs().codecFor(type));
    }

    @Override
    public Flux<DirectBuffer> receiveViews() {
        return receive(Codecs.reusableDirectBufferView());
    }

    // ------------------------------------------------------------------------------------------------ Outbound

    @Override
    public <T> Mono<Void> send(final Publisher<? extends T> messages, final Codec<T> codec) {
        return new ChannelSend<>(this, messages, codec);
    }

    /**
     * Makes the send of this use ({@link ChannelSend}), the first with the OPEN frame if this side opens the stream;
     * the caller starts it.
     *
     * @return the send, or null if one runs already on this use
     */
    <T> OutboundStream<T> startSend(final Publisher<? extends T> messages, final Codec<T> codec,
                                    final OutboundStream.Completion completion) {
        final int openKind = pendingOpenKind;
        final OutboundStream<T> sender = owner.newOutbound(this, openKind, messages, codec, completion);
        if (!outbound.compareAndSet(null, sender)) {
            return null;
        }
        pendingOpenKind = 0;
        return sender;
    }

    /** The send of this use ended (any thread): the loop notes the outbound done, and frees the stream if both are. */
    void outboundEnded() {
        owner.onLoop(outboundEndedTask);
    }

    private final Runnable outboundEndedTask = this::onOutboundEnded;
    /** What an inbound of this stream runs on the loop when it ended (one per stream, not per use). */
    final Runnable inboundEndedTask;

    @Override
    public <T> Mono<Void> send(final Publisher<? extends T> messages, final Class<T> type) {
        return send(messages, owner.codecs().codecFor(type));
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    void signalInbound() {
        final InboundStream<?> in = inbound.get();
        if (in != null) {
            in.signal();
        }
    }

    void signalOutbound() {
        final OutboundStream<?> out = outbound.get();
        if (out != null) {
            out.signal();
        }
    }

    /**
     * @return true while a send runs on this stream or a subscriber reads its inbound (loop; a snapshot): for the
     *     connection's own stream, which is open for the connection's life ({@link DefaultConnection#hasStreamsInUse})
     */
    boolean isInUse() {
        final InboundStream<?> in = inbound.get();
        if (in != null && in.isReading()) {
            return true;
        }
        final OutboundStream<?> out = outbound.get();
        return out != null && !out.isFinished();
    }

    /** @return true if nobody reads this stream now, or its reader has finished (loop) */
    boolean isInboundIdle() {
        final InboundStream<?> in = inbound.get();
        return in == null || in.isTerminated();
    }

    void onInboundEnded() {
        inboundDone = true;
        release();
    }

    private void onOutboundEnded() {
        outboundDone = true;
        release();
    }

    /** @return true if the current use is a call stream ({@link StreamKind#REQUEST_RESPONSE}) */
    boolean isCallStream() {
        return callStream;
    }

    /** @return which use of this stream slot is current (loop) */
    int use() {
        return uses;
    }

    /**
     * Use {@code use} is done with (a request served, or a call given up after its stream opened): what this side did
     * not read is drained, what it did not send is sent empty (with the OPEN, if this side opened the stream and
     * had not sent it yet), so that the stream comes back. Nothing happens if that use is over already. (Loop.)
     */
    void finishServing(final int use) {
        if (!open || use != uses) {
            return;
        }
        if (inbound.get() == null) {
            receive(Codecs.BYTE_ARRAY).subscribe(ignored -> { }, ignored -> { });
        }
        if (outbound.get() == null) {
            send(Flux.<byte[]>empty(), Codecs.BYTE_ARRAY).subscribe(null, ignored -> { });
        }
    }

    private void release() {
        if (open && inboundDone && outboundDone && slot != DefaultConnection.DEFAULT_STREAM) {
            open = false;
            inbound.set(null);
            outbound.set(null);
            owner.onChannelFree(this, countedUse);
        }
    }

    @Override
    public Connection connection() {
        return owner;
    }
}
