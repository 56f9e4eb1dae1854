package io.rdmareactive.internal.reactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.driver.DriverCounters;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.protocol.ErrorFrameFlyweight;
import io.rdmareactive.internal.protocol.FrameCheck;
import io.rdmareactive.internal.protocol.FrameConsumer;
import io.rdmareactive.internal.protocol.FrameHeaderFlyweight;
import io.rdmareactive.internal.protocol.MessageAssembler;
import io.rdmareactive.internal.protocol.ReassemblyBudget;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolStream;
import java.util.function.BooleanSupplier;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The inbound side of one stream as a Reactive Streams publisher: messages are decoded in place from the receive
 * ring, on the connection's event loop, and only as many as the subscriber requested. A {@code request(n)} made on
 * the loop (from {@code onNext}) drains at once; one made on another thread hands the drain to the loop.
 *
 * <p>Demand becomes credit on the wire: the subscriber's {@code request(n)} is granted to the peer as REQUEST_N, at
 * most {@code prefetch} messages ahead of what was delivered, so unbounded demand never reaches the wire. A message's
 * bytes are freed (and later returned to the peer as ring credit) only after {@code onNext} returns for it.
 *
 * @param <T> what the codec decodes
 */
public final class InboundStream<T> extends Flux<T> implements Subscription, Runnable, FrameConsumer,
    MessageAssembler.MessageHandler {

    private final ProtocolConnection connection;
    private final ProtocolStream stream;
    private final Codec<T> codec;
    private final EventLoop loop;
    private final long prefetch;
    private final long limit;
    private final ErrorFactory errors;
    private final BooleanSupplier released;
    private final Runnable onTerminal;
    private final DriverCounters counters;
    /** Made on the first fragment (loop): a stream of whole messages never needs one. */
    private MessageAssembler assembler;
    private final ReassemblyBudget reassembly;
    private final int maxMessageLength;
    /** Made on the first ERROR frame (loop). */
    private ErrorFrameFlyweight errorFrame;
    private volatile boolean subscribed;
    private volatile long requested;
    private volatile int wip;

    private static final VarHandle SUBSCRIBED;
    private static final VarHandle REQUESTED;
    private static final VarHandle WIP;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            SUBSCRIBED = lookup.findVarHandle(InboundStream.class, "subscribed", boolean.class);
            REQUESTED = lookup.findVarHandle(InboundStream.class, "requested", long.class);
            WIP = lookup.findVarHandle(InboundStream.class, "wip", int.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Dropped at once by a cancel, from any thread (Reactive Streams 3.13). */
    private volatile CoreSubscriber<? super T> subscriber;
    /** The subscriber of the drain running now (loop only; null outside a drain). */
    private CoreSubscriber<? super T> current;
    private volatile boolean cancelled;
    private boolean done;
    private long emitted;
    private long granted;
    private long delivered;
    private Throwable failure;

    /**
     * @param prefetch        the most messages granted to the peer ahead of delivery
     * @param limit           the most messages this stream carries in all ({@code Long.MAX_VALUE}: no limit; a
     *                        response, 1): no more is ever granted
     * @param granted         messages the peer may send already, without a REQUEST_N (a request's one message)
     * @param errors          makes the exceptions subscribers get
     * @param released        true once the connection's memory is being released: the rings must not be touched
     *                        (checked on the loop, which is where release is decided)
     * @param onTerminal      runs on the loop once this stream ended (completed, failed or cancelled)
     * @param counters        where messages and bytes received are counted
     * @param reassembly      the runtime's budget for messages that arrive in fragments
     * @param maxMessageLength the longest message the stream carries (a call stream's messages have a header more
     *                        than the connection's maximum)
     */
    public InboundStream(final ProtocolConnection connection, final ProtocolStream stream, final Codec<T> codec,
                         final EventLoop loop, final long prefetch, final long limit, final long granted,
                         final ErrorFactory errors, final BooleanSupplier released, final Runnable onTerminal,
                         final DriverCounters counters, final ReassemblyBudget reassembly,
                         final int maxMessageLength) {
        this.connection = connection;
        this.maxMessageLength = maxMessageLength;
        this.stream = stream;
        this.codec = codec;
        this.loop = loop;
        this.prefetch = prefetch;
        this.limit = limit;
        this.granted = granted;
        this.errors = errors;
        this.released = released;
        this.onTerminal = onTerminal;
        this.counters = counters;
        this.reassembly = reassembly;
    }

    @Override
    public void subscribe(final CoreSubscriber<? super T> actual) {
        if (!SUBSCRIBED.compareAndSet(this, false, true)) {
            Operators.error(actual, new IllegalStateException("the inbound of stream " + stream.id()
                + " accepts one subscriber; share it with publish() or cache() if several need it"));
            return;
        }
        this.subscriber = actual;
        actual.onSubscribe(this);
        signal();
    }

    // ---------------------------------------------------------------------------------------------- subscription

    @Override
    public void request(final long n) {
        if (Operators.validate(n)) {
            long now;
            do {
                now = requested;
            } while (!REQUESTED.compareAndSet(this, now, Operators.addCap(now, n)));
            signal();
        }
    }

    @Override
    public void cancel() {
        if (!cancelled) {
            cancelled = true;
            subscriber = null; // Reactive Streams 3.13: a cancelled subscription drops its subscriber
            stream.cancel();
            signal();
        }
    }

    /**
     * Something happened (frames arrived, demand, the connection ended): drain now on the loop, or hand the drain to
     * the loop from any other thread. Once the loop has stopped, the drain runs here (it reads no ring once released).
     */
    public void signal() {
        if ((int) WIP.getAndAdd(this, 1) == 0 && (loop.inLoop() || !loop.execute(this))) {
            run();
        }
    }

    // ---------------------------------------------------------------------------------------------- drain

    @Override
    public void run() {
        int missed = 1;
        while (true) {
            current = subscriber;
            try {
                drain();
            } finally {
                current = null;
                report();
            }
            missed = (int) WIP.getAndAdd(this, -missed) - missed;
            if (missed == 0) {
                return;
            }
        }
    }

    private void drain() {
        if (done) {
            return;
        }
        if (released.getAsBoolean()) { // the rings are being freed: never touch them again
            if (cancelled) {
                done = true;
                subscriber = null;
                ended();
            } else if (current != null) {
                terminate(errors.connectionFailed(connection.endReason()));
            }
            return;
        }
        if (cancelled) {
            subscriber = null; // Reactive Streams 3.13: a cancelled subscription drops its subscriber
            discardUntilEnd();
            return;
        }
        final CoreSubscriber<? super T> actual = current;
        if (actual == null) {
            return;
        }
        grantCredit();
        while (!done && !cancelled && emitted < requested) {
            if (!stream.poll(this)) {
                break;
            }
            if (assembler != null && assembler.error() != null) {
                if (assembler.isProtocolError()) {
                    stream.consumerError(assembler.error());
                    terminate(errors.connectionFailed("protocol error: " + assembler.error()));
                } else {
                    stream.consumerRefused(assembler.error());
                    terminate(errors.connectionFailed(assembler.error()));
                }
                return;
            }
        }
        if (done || cancelled) {
            return;
        }
        // read the end of the connection before looking at the ring: the loop publishes the last frames it parsed
        // before it marks the connection ended, so "ended and nothing left" is then the truth
        final boolean ended = connection.isTerminated();
        final int next = stream.peekType();
        if (next == ProtocolStream.COMPLETE || next == ProtocolStream.ERROR) {
            stream.poll(this); // terminal frames need no demand
            return;
        }
        if (next < 0 && ended) {
            terminate(errors.connectionFailed(connection.endReason()));
            return;
        }
        grantCredit();
    }

    /**
     * After a cancel, the peer's sender stops and ends its direction with COMPLETE: frames up to it are dropped, so
     * that the next use of the stream starts clean.
     */
    private void discardUntilEnd() {
        final boolean ended = connection.isTerminated(); // before the ring: see drain()
        int type;
        while ((type = stream.peekType()) >= 0) {
            stream.poll(DISCARD);
            if (type == ProtocolStream.COMPLETE || type == ProtocolStream.ERROR) {
                done = true;
                ended();
                return;
            }
        }
        if (ended) {
            done = true;
            ended();
        }
    }

    private static final FrameConsumer DISCARD = (buffer, index, length, type, flags) -> { };

    private void grantCredit() {
        final long demand = requested - emitted;
        final long outstanding = granted - delivered;
        if (demand > outstanding && outstanding <= prefetch / 2) {
            final long grant = Math.min(Math.min(demand - outstanding, prefetch - outstanding), limit - granted);
            if (grant > 0) {
                granted += grant;
                stream.request(grant);
            }
        }
    }

    /**
     * A frame of this stream, in place (loop). DATA goes to the assembler; COMPLETE and ERROR end the stream once
     * they pass {@link ProtocolStream#checkFrame}, and ERROR is read through {@link ErrorFrameFlyweight}. Anything else
     * (an OPEN is taken by the connection before an inbound exists) is a protocol error that ends the connection.
     */
    @Override
    public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                        final byte flags) {
        switch (type) {
            case ProtocolStream.DATA -> {
                if (assembler == null && (flags & ProtocolStream.WHOLE) == ProtocolStream.WHOLE) {
                    onMessage(buffer, index, length); // a whole message, no fragment begun: no assembler needed
                } else {
                    assembler().onFrame(buffer, index, length, type, flags);
                }
            }
            case ProtocolStream.COMPLETE -> {
                final int check = stream.checkFrame(buffer, index, length, type);
                if (check != FrameCheck.OK) {
                    protocolError("COMPLETE", check);
                    return;
                }
                done = true;
                subscriber = null;
                current.onComplete();
                ended();
            }
            case ProtocolStream.ERROR -> {
                final int check = stream.checkFrame(buffer, index, length, type);
                if (check != FrameCheck.OK) {
                    protocolError("ERROR", check);
                    return;
                }
                if (errorFrame == null) {
                    errorFrame = new ErrorFrameFlyweight();
                }
                errorFrame.wrap(buffer, index - FrameHeaderFlyweight.HEADER_LENGTH);
                terminate(errors.remoteError(errorFrame.errorCode(), errorFrame.message()));
            }
            default -> protocolError("frame type " + type, FrameCheck.WRONG_STREAM);
        }
    }

    /** The peer broke the protocol on this stream: the loop ends the connection; the subscriber learns why. */
    private void protocolError(final String frame, final int check) {
        final String why = frame + ": " + FrameCheck.describe(check);
        stream.consumerError(why);
        terminate(errors.connectionFailed("protocol error: " + why));
    }

    private MessageAssembler assembler() {
        if (assembler == null) {
            assembler = new MessageAssembler(maxMessageLength, reassembly, this);
        }
        return assembler;
    }

    /** A whole message, from the assembler (loop). */
    @Override
    public void onMessage(final DirectBuffer buffer, final int index, final int length) {
        delivered++;
        unreportedMessages++;
        unreportedBytes += length;
        final T value;
        try {
            value = codec.decode(buffer, index, length);
        } catch (final RuntimeException ex) {
            stream.cancel();
            terminate(ex);
            return;
        }
        emitted++;
        current.onNext(value);
    }

    /** Messages and bytes delivered and not yet added to the counters (the loop's). */
    private long unreportedMessages;
    private long unreportedBytes;

    /** Adds what this drain delivered to the counters: once per drain rather than two atomic additions a message. */
    private void report() {
        if (unreportedMessages > 0) {
            counters.messagesReceived().getAndAdd(unreportedMessages);
            counters.bytesReceived().getAndAdd(unreportedBytes);
            unreportedMessages = 0;
            unreportedBytes = 0;
        }
    }

    private void terminate(final Throwable error) {
        if (!done) {
            done = true;
            failure = error;
            subscriber = null;
            if (current != null) {
                current.onError(error);
            }
            ended();
        }
    }

    /** The stream ended (on the loop): its reassembly memory goes back, then the channel hears of it. */
    private void ended() {
        if (assembler != null) {
            assembler.release();
        }
        onTerminal.run();
    }

    /** @return true while a subscriber reads the stream: it neither cancelled nor was told of the end (on the loop) */
    public boolean isReading() {
        return !done && !cancelled;
    }

    /** @return true once the stream has ended for its subscriber, its end frame consumed (on the loop) */
    public boolean isTerminated() {
        return done;
    }

    /** @return the error the stream ended with, if any */
    public Throwable failure() {
        return failure;
    }

    /** @return the stream's state, for diagnostics */
    @Override
    public String toString() {
        return "receive[" + (done ? "ended" : cancelled ? "cancelled, draining to the end" : subscribed ? "reading"
            : "not subscribed") + ", requested " + requested + ", delivered " + delivered + " of " + granted
            + " granted]";
    }
}
