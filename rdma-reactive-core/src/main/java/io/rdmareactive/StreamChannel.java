package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.ProtocolStream;
import io.rdmareactive.internal.reactive.InboundStream;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One stream slot of a connection, used once per request: opened (by this side with an OPEN frame, or by the peer),
 * carries one inbound and one outbound, and is free again when both have ended. State changes happen on the
 * connection's worker.
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
    private volatile int pendingOpenKind;
    /** True while {@link #openCheck} waits on the worker: arrivals then need no second check. */
    private final AtomicBoolean openCheckScheduled = new AtomicBoolean();
    /** Looks for an OPEN the peer sent (worker); made once, so that frames arriving allocate nothing. */
    private final Runnable openCheck = this::checkOpen;

    StreamChannel(final DefaultConnection owner, final int slot, final ProtocolStream stream) {
        this.owner = owner;
        this.slot = slot;
        this.stream = stream;
    }

    int slot() {
        return slot;
    }

    ProtocolStream stream() {
        return stream;
    }

    boolean isFree() {
        return !open;
    }

    /** This side opens the stream: its first send carries the OPEN frame. (Worker.) */
    void openLocally(final StreamKind kind) {
        begin();
        pendingOpenKind = kind.code();
    }

    /** The peer opened the stream. (Worker.) */
    void openRemotely() {
        begin();
        pendingOpenKind = 0;
    }

    private void begin() {
        if (slot != DefaultConnection.DEFAULT_STREAM) {
            stream.beginUse();
        }
        uses++;
        open = true;
        inboundDone = false;
        outboundDone = false;
        inbound.set(null);
        outbound.set(null);
    }

    // ------------------------------------------------------------------------------------------------ Inbound

    @Override
    public <T> Flux<T> receive(final Codec<T> codec) {
        return Flux.defer(() -> {
            final InboundStream<T> created = owner.newInbound(this, codec);
            if (!inbound.compareAndSet(null, created)) {
                return Flux.error(new IllegalStateException("this stream's inbound already has a subscriber; share "
                    + "one Flux (publish(), cache()) if several need its messages"));
            }
            return created;
        });
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
        return Mono.<Void>create(sink -> {
            final int openKind = pendingOpenKind;
            final OutboundStream<T> sender = owner.newOutbound(this, openKind, messages, codec, sink);
            if (!outbound.compareAndSet(null, sender)) {
                sink.error(new IllegalStateException("a send is already running on this stream; send one publisher "
                    + "at a time (concat them)"));
                return;
            }
            pendingOpenKind = 0;
            sender.start();
        }).doFinally(signal -> owner.onWorker(this::onOutboundEnded));
    }

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

    /** Frames arrived (driver thread): check on the worker whether the peer opened this stream. */
    void scheduleOpenCheck() {
        if (openCheckScheduled.compareAndSet(false, true)) {
            owner.onWorker(openCheck);
        }
    }

    private void checkOpen() {
        openCheckScheduled.set(false); // before the check: frames arriving during it schedule another
        owner.acceptRemoteOpen(this);
    }

    void signalOutbound() {
        final OutboundStream<?> out = outbound.get();
        if (out != null) {
            out.signal();
        }
    }

    /** @return true if nobody reads this stream now, or its reader has finished (worker) */
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

    /** @return which use of this stream slot is current (worker) */
    int use() {
        return uses;
    }

    /**
     * The request of use {@code use} was served: what this side did not read is drained, what it did not answer is
     * answered empty. Nothing happens if that use is over already.
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
            owner.onChannelFree(this);
        }
    }
}
