package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One request/response call being served ({@link ServedCalls}): the handler's {@link Inbound} (the one request) and
 * {@link Outbound} (the one answer), the subscriber of what the handler returned, the task that settles the answer on
 * the loop, and the answer's message on the call stream.
 *
 * <p>The request is decoded in place from the receive ring when its subscriber asks for it while the handler runs on
 * the loop; if it was not decoded by the time the handler returns, it is copied then, so that a later subscriber (on
 * any thread) still has it. The answer is the first element of the first send (the rest of its publisher is cancelled),
 * an error if that send fails or the handler fails before any send, or empty if the handler ends without sending.
 */
final class ServedCall extends CallMessage implements Inbound, Outbound, CoreSubscriber<Void>, Runnable {

    private static final VarHandle RECEIVED;
    private static final VarHandle ANSWERING;
    private static final VarHandle SEND;
    /** The longest error message an answer carries, in bytes. */
    private static final int MAX_ERROR_BYTES = 4096;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            RECEIVED = lookup.findVarHandle(ServedCall.class, "received", boolean.class);
            ANSWERING = lookup.findVarHandle(ServedCall.class, "answering", boolean.class);
            SEND = lookup.findVarHandle(ServedCall.class, "send", AnswerSend.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ServedCalls owner;
    private final EventLoop loop;
    /** The request: a view of the ring while the handler runs, else a copy (or null once it was read). */
    private volatile DirectBuffer request;
    private volatile int requestOffset;
    private final int requestLength;
    private volatile boolean received;
    /** The request was decoded: it needs no copy. */
    private volatile boolean decoded;
    /** What the handler returned, once subscribed. */
    private volatile Subscription handling;
    private volatile boolean handlerDone;
    private volatile Throwable handlerError;
    private volatile AnswerSend<?> send;
    /** Set by the first to decide the answer; the answer's fields follow, then {@link #answerType}. */
    private volatile boolean answering;
    private volatile int answerType;
    private Object answerValue;
    private Codec<Object> answerCodec;
    private Throwable answerError;
    private byte[] errorBytes;
    private Throwable encodeError;
    /** Queued on the stream, or dropped (loop). */
    private boolean settled;

    ServedCall(final ServedCalls owner, final int callId, final DirectBuffer message) {
        this.owner = owner;
        this.loop = owner.loop;
        this.callId = callId;
        this.request = message;
        this.requestOffset = CallHeaderFlyweight.LENGTH;
        this.requestLength = message.capacity() - CallHeaderFlyweight.LENGTH;
    }

    // ------------------------------------------------------------------------------------------------ Inbound

    @Override
    public <T> Flux<T> receive(final Codec<T> codec) {
        if (!RECEIVED.compareAndSet(this, false, true)) {
            return Flux.error(new IllegalStateException("the request of a call is received once; share it "
                + "(cache()) if several need it"));
        }
        return new Request<>(this, java.util.Objects.requireNonNull(codec, "codec"));
    }

    @Override
    public <T> Flux<T> receive(final Class<T> type) {
        return receive(owner.connection.codecs().codecFor(type));
    }

    @Override
    public Flux<DirectBuffer> receiveViews() {
        return receive(Codecs.reusableDirectBufferView());
    }

    /**
     * Decodes the request, once its subscriber asked for it (any thread): in place from the receive ring while the
     * handler runs on the loop (a view is valid during the subscriber's {@code onNext}, as on any stream), else from
     * the copy made when the handler returned. Off the loop it holds this call's monitor, which the copy takes too, so
     * that the ring's frame, released only after the copy, is never read once released.
     */
    private <T> T decodeRequest(final Codec<T> codec) {
        if (loop.inLoop()) {
            decoded = true;
            return codec.decode(request, requestOffset, requestLength);
        }
        synchronized (this) {
            decoded = true;
            return codec.decode(request, requestOffset, requestLength);
        }
    }

    /**
     * The handler returned (loop): a request not decoded yet is copied out of the ring, which moves on, for a
     * subscriber that asks for it later; one decoded already is let go.
     */
    void handlerReturned() {
        if (decoded) {
            request = null;
            return;
        }
        synchronized (this) {
            if (!decoded) {
                final byte[] bytes = new byte[requestLength];
                request.getBytes(requestOffset, bytes);
                requestOffset = 0;
                request = new UnsafeBuffer(bytes);
            } else {
                request = null;
            }
        }
    }

    /** {@link #receive}'s publisher: one subscriber, the request decoded at its first {@code request(n)}. */
    private static final class Request<T> extends Flux<T> implements Subscription {
        private static final VarHandle STATE;
        private static final int NEW = 0;
        private static final int SUBSCRIBED = 1;
        private static final int DONE = 2;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Request.class, "state", int.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final ServedCall call;
        private final Codec<T> codec;
        private CoreSubscriber<? super T> actual;
        private volatile int state;

        Request(final ServedCall call, final Codec<T> codec) {
            this.call = call;
            this.codec = codec;
        }

        @Override
        public void subscribe(final CoreSubscriber<? super T> subscriber) {
            if (!STATE.compareAndSet(this, NEW, SUBSCRIBED)) {
                reactor.core.publisher.Operators.error(subscriber, new IllegalStateException("the request of a call "
                    + "is received once; share it (cache()) if several need it"));
                return;
            }
            actual = subscriber;
            subscriber.onSubscribe(this);
        }

        @Override
        public void request(final long n) {
            if (!STATE.compareAndSet(this, SUBSCRIBED, DONE)) {
                return; // delivered already, or cancelled
            }
            if (n <= 0) {
                actual.onError(new IllegalArgumentException("§3.9: request(n) needs n > 0, not " + n));
                return;
            }
            final T value;
            try {
                value = call.decodeRequest(codec);
            } catch (final RuntimeException ex) {
                actual.onError(ex);
                return;
            }
            if (value != null) {
                actual.onNext(value);
            }
            actual.onComplete();
        }

        @Override
        public void cancel() {
            state = DONE;
        }
    }

    // ------------------------------------------------------------------------------------------------ Outbound

    @Override
    public <T> Mono<Void> send(final Publisher<? extends T> messages, final Codec<T> codec) {
        return new AnswerSend<>(this, messages, codec);
    }

    @Override
    public <T> Mono<Void> send(final Publisher<? extends T> messages, final Class<T> type) {
        return send(messages, owner.connection.codecs().codecFor(type));
    }

    /** @return true if {@code answer} is the call's send, false if it had one already */
    boolean startSend(final AnswerSend<?> answer) {
        return SEND.compareAndSet(this, null, answer);
    }

    /**
     * The answer is decided (any thread), unless it was already: a value with its codec, empty, or an error.
     */
    @SuppressWarnings("unchecked")
    void answer(final int type, final Object value, final Codec<?> codec, final Throwable error) {
        if (!ANSWERING.compareAndSet(this, false, true)) {
            return;
        }
        answerValue = value;
        answerCodec = (Codec<Object>) codec;
        answerError = error;
        answerType = type;
        settleSoon();
    }

    // ------------------------------------------------------------------------------------------------ the handler

    @Override
    public void onSubscribe(final Subscription subscription) {
        handling = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(final Void ignored) {
        // a Publisher<Void> has no elements
    }

    @Override
    public void onError(final Throwable error) {
        ServedCalls.logFailure(error);
        handlerError = error;
        handlerDone = true;
        settleSoon();
    }

    @Override
    public void onComplete() {
        handlerDone = true;
        settleSoon();
    }

    /** The peer gave the call up (loop): the handler and the send are cancelled, and the answer is empty. */
    void cancelledByPeer() {
        final Subscription handler = handling;
        if (handler != null) {
            handler.cancel();
        }
        final AnswerSend<?> answering = send;
        if (answering != null) {
            answering.cancelUpstream();
        }
        answer(CallHeaderFlyweight.EMPTY, null, null, null);
    }

    // ------------------------------------------------------------------------------------------------ settling (loop)

    private void settleSoon() {
        if (loop.inLoop()) {
            run();
        } else {
            loop.execute(this);
        }
    }

    /** Queues the answer once it is decided, or once the handler ended without a send (loop). */
    @Override
    public void run() {
        if (settled) {
            return;
        }
        final Throwable ended = owner.endedWith();
        if (ended != null) {
            dropped(ended);
            return;
        }
        if (answerType == 0) {
            if (!handlerDone || send != null) {
                return; // the handler runs, or its send decides
            }
            final Throwable failed = handlerError;
            answer(failed != null ? CallHeaderFlyweight.ERROR : CallHeaderFlyweight.EMPTY, null, null, failed);
            if (answerType == 0) {
                return; // decided on another thread this instant: its settle follows
            }
            if (settled) {
                return; // answer() settled it
            }
        }
        settled = true;
        owner.answer(this);
    }

    /** The stream ended before the answer went out (loop): the send, if any, fails. */
    void dropped(final Throwable error) {
        settled = true;
        answerValue = null;
        final AnswerSend<?> answering = send;
        if (answering != null) {
            answering.failed(error);
        }
    }

    /** The connection ended while the call was served (loop). */
    void connectionEnded(final Throwable error) {
        dropped(error);
    }

    // ------------------------------------------------------------------------------------------------ the answer's message

    @Override
    void prepare(final int maxBody) {
        bodyLength = 0;
        switch (answerType) {
            case CallHeaderFlyweight.VALUE -> {
                final int length;
                try {
                    length = answerCodec.encodedLength(answerValue);
                } catch (final RuntimeException ex) {
                    notEncoded(ex);
                    return;
                }
                if (length > maxBody) {
                    error(maxBody, answerCodec.name() + " encoded an answer of " + length + " bytes, over the "
                        + "connection's maximum of " + maxBody);
                    encodeError = new IllegalArgumentException(new String(errorBytes, StandardCharsets.UTF_8));
                    return;
                }
                type = CallHeaderFlyweight.VALUE;
                bodyLength = length;
            }
            case CallHeaderFlyweight.ERROR -> {
                final Throwable error = answerError;
                error(maxBody, String.valueOf(error.getMessage() != null ? error.getMessage() : error));
            }
            default -> type = CallHeaderFlyweight.EMPTY;
        }
    }

    private void error(final int maxBody, final String message) {
        if (errorBytes == null) {
            errorBytes = message.getBytes(StandardCharsets.UTF_8);
        }
        type = CallHeaderFlyweight.ERROR;
        bodyLength = Math.min(errorBytes.length, Math.min(MAX_ERROR_BYTES, maxBody));
    }

    private void notEncoded(final RuntimeException error) {
        ServedCalls.logNotEncoded(error);
        encodeError = new IllegalStateException("the answer could not be encoded: " + error.getMessage(), error);
        type = CallHeaderFlyweight.NOT_ENCODED;
    }

    @Override
    void writeBody(final MutableDirectBuffer buffer, final int offset) {
        if (type == CallHeaderFlyweight.VALUE) {
            answerCodec.encode(answerValue, buffer, offset, bodyLength);
        } else {
            buffer.putBytes(offset, errorBytes, 0, bodyLength);
        }
    }

    @Override
    int bodyFailed(final RuntimeException error) {
        notEncoded(error);
        return CallHeaderFlyweight.NOT_ENCODED;
    }

    @Override
    void written(final int writtenType) {
        answerValue = null;
        if (send != null) {
            owner.afterWrite(this); // its send completes outside the encode
        }
    }

    @Override
    void afterWrite() {
        final AnswerSend<?> answering = send;
        final Throwable failure = encodeError;
        if (failure != null) {
            answering.failed(failure);
        } else {
            answering.written();
        }
    }

    @Override
    public Connection connection() {
        return owner.connection;
    }
}
