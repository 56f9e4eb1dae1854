package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.util.ArrayDeque;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;

/**
 * One side of a call stream: the stream a REQUEST_RESPONSE OPEN begins, which carries many request/response calls at
 * once ({@link CallHeaderFlyweight}). It is the source of the stream's send (a publisher of {@link CallMessage}s,
 * emitted as the peer's demand allows), the codec that encodes them, and the reader of what the peer sends. The
 * opener's side is {@link OutgoingCalls}, the serving side {@link ServedCalls}. Loop only, but for what the Javadoc of
 * a method says otherwise.
 */
abstract class CallStreamEnd implements Publisher<CallMessage>, Subscription, Codec<CallMessage>,
    OutboundStream.Completion, CoreSubscriber<DirectBuffer> {

    final DefaultConnection connection;
    final EventLoop loop;
    private final int maxBody;
    StreamChannel channel;
    /** The stream's send, once started. */
    OutboundStream<CallMessage> send;
    /** What the peer sends, once subscribed. */
    Subscription inbound;
    private Subscriber<? super CallMessage> downstream;
    private long requested;
    private boolean emitting;
    private boolean missed;
    /** The send ends (COMPLETE) once nothing is left to emit. */
    private boolean completing;
    /** Messages written whose {@link CallMessage#afterWrite} is due. */
    private final ArrayDeque<CallMessage> afterWrites = new ArrayDeque<>();
    private boolean afterWritesScheduled;
    private final Runnable runAfterWrites = this::runAfterWrites;
    /** The peer broke the call stream's rules: nothing it sends on it is read any more. */
    boolean broken;

    CallStreamEnd(final DefaultConnection connection) {
        this.connection = connection;
        this.loop = connection.loop();
        this.maxBody = connection.maxMessageLength(); // the header is on top (DefaultConnection.maxWireMessage)
    }

    /** Starts reading the stream and its send (loop), once it is open. */
    final void start(final StreamChannel opened) {
        channel = opened;
        opened.subscribeInbound(Codecs.reusableDirectBufferView(), this);
        final OutboundStream<CallMessage> sender = opened.startSend(this, this, this);
        if (sender == null) {
            protocolError("a send already runs on a new call stream");
            return;
        }
        send = sender;
        sender.start();
    }

    // ------------------------------------------------------------------------------------------------ the send's source

    /** @return the next message to send, or null if none may go now (loop) */
    abstract CallMessage next();

    /** Sends what may go now (loop; re-entrant calls make the running one go round again). */
    final void emit() {
        if (emitting) {
            missed = true;
            return;
        }
        emitting = true;
        try {
            do {
                missed = false;
                CallMessage message;
                while (requested > 0 && downstream != null && (message = next()) != null) {
                    requested--;
                    downstream.onNext(message);
                }
                if (completing && downstream != null && !hasMore()) {
                    final Subscriber<? super CallMessage> ending = downstream;
                    downstream = null;
                    ending.onComplete();
                }
            } while (missed);
        } finally {
            emitting = false;
        }
    }

    /** @return true if a message waits to be sent (loop) */
    abstract boolean hasMore();

    /** Ends the send with COMPLETE once what waits was sent (loop). */
    final void completeSend() {
        completing = true;
        emit();
    }

    @Override
    public final void subscribe(final Subscriber<? super CallMessage> actual) {
        downstream = actual;
        actual.onSubscribe(this);
    }

    @Override
    public final void request(final long n) {
        if (!loop.inLoop()) {
            loop.execute(() -> request(n));
            return;
        }
        requested = Operators.addCap(requested, n);
        emit();
    }

    @Override
    public final void cancel() {
        downstream = null;
    }

    // ------------------------------------------------------------------------------------------------ the codec

    @Override
    public final String name() {
        return "call-stream";
    }

    @Override
    public final int encodedLength(final CallMessage message) {
        message.prepare(maxBody);
        return CallHeaderFlyweight.LENGTH + message.bodyLength;
    }

    @Override
    public final int encode(final CallMessage message, final MutableDirectBuffer buffer, final int offset,
                            final int maxLength) {
        int type = message.type;
        if (message.bodyLength > 0) {
            try {
                message.writeBody(buffer, offset + CallHeaderFlyweight.LENGTH);
            } catch (final RuntimeException ex) {
                type = message.bodyFailed(ex);
            }
        }
        CallHeaderFlyweight.write(buffer, offset, message.callId, type);
        message.written(type);
        return CallHeaderFlyweight.LENGTH + message.bodyLength;
    }

    @Override
    public final CallMessage decode(final DirectBuffer buffer, final int offset, final int length) {
        throw new UnsupportedOperationException("call messages are read by their stream's end, not decoded");
    }

    /** {@code message}'s {@link CallMessage#afterWrite} is due, in a task of the loop (loop). */
    final void afterWrite(final CallMessage message) {
        afterWrites.add(message);
        if (!afterWritesScheduled) {
            afterWritesScheduled = loop.execute(runAfterWrites);
        }
    }

    private void runAfterWrites() {
        afterWritesScheduled = false;
        CallMessage message;
        while ((message = afterWrites.poll()) != null) {
            message.afterWrite();
        }
    }

    // ------------------------------------------------------------------------------------------------ what the peer sends

    @Override
    public final void onSubscribe(final Subscription subscription) {
        inbound = subscription;
        subscription.request(initialDemand());
    }

    /** @return the messages of the peer asked for at first */
    abstract long initialDemand();

    @Override
    public final void onNext(final DirectBuffer message) {
        if (broken) {
            return;
        }
        final String wrong = CallHeaderFlyweight.check(message, 0, message.capacity(), isOpener());
        if (wrong != null) {
            protocolError(wrong);
            return;
        }
        onMessage(message, message.getInt(CallHeaderFlyweight.CALL_ID_OFFSET, CallHeaderFlyweight.BYTE_ORDER),
            message.getInt(CallHeaderFlyweight.TYPE_OFFSET, CallHeaderFlyweight.BYTE_ORDER));
    }

    /** @return true on the opener's side (it reads answers), false on the serving side (it reads calls) */
    abstract boolean isOpener();

    /** A well-formed message of the peer (loop): {@code message} is valid only until this returns. */
    abstract void onMessage(DirectBuffer message, int callId, int type);

    @Override
    public final void onError(final Throwable error) {
        ended(error);
    }

    @Override
    public final void onComplete() {
        ended(null);
    }

    /** What the peer sends ended: with {@code error}, or the peer completed it (null). */
    abstract void ended(Throwable error);

    /** The peer broke the call stream's rules (loop): the connection ends with a protocol error. */
    final void protocolError(final String what) {
        broken = true;
        channel.stream().consumerError("call stream " + channel.slot() + ": " + what);
    }

    // ------------------------------------------------------------------------------------------------ the send's end

    @Override
    public final void sent() {
        channel.outboundEnded();
    }

    @Override
    public final void failed(final Throwable error) {
        channel.outboundEnded();
        if (loop.inLoop()) {
            sendFailed(error);
        } else {
            loop.execute(() -> sendFailed(error));
        }
    }

    /** The send failed (loop): the connection ended, so nothing more goes out on this stream. */
    abstract void sendFailed(Throwable error);
}
