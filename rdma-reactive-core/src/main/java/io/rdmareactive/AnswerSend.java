package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * A served call's {@link ServedCall#send}: takes the first element of the publisher as the answer (and cancels the
 * rest), or its error, or its emptiness, and completes once the answer was written to the call stream (fails if the
 * connection ended first, or the answer could not be encoded). One object per answer, no operator chain.
 *
 * @param <T> what the codec encodes
 */
final class AnswerSend<T> extends Mono<Void> implements CoreSubscriber<T>, Subscription {

    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(AnswerSend.class, "done", boolean.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ServedCall call;
    private final Publisher<? extends T> messages;
    private final Codec<T> codec;
    private volatile CoreSubscriber<? super Void> actual;
    private volatile Subscription upstream;
    private volatile boolean cancelled;
    private volatile boolean done;
    /** The publisher gave its signal for the answer (the publisher's thread). */
    private boolean got;

    AnswerSend(final ServedCall call, final Publisher<? extends T> messages, final Codec<T> codec) {
        this.call = call;
        this.messages = java.util.Objects.requireNonNull(messages, "messages");
        this.codec = java.util.Objects.requireNonNull(codec, "codec");
    }

    @Override
    public void subscribe(final CoreSubscriber<? super Void> subscriber) {
        if (!call.startSend(this)) {
            Operators.error(subscriber, new IllegalStateException("a call has one answer, and a send for it runs "
                + "already"));
            return;
        }
        actual = subscriber;
        subscriber.onSubscribe(this);
        messages.subscribe(this);
    }

    // ------------------------------------------------------------------------------------------------ the publisher

    @Override
    public void onSubscribe(final Subscription subscription) {
        if (upstream != null) {
            subscription.cancel();
            return;
        }
        upstream = subscription;
        if (cancelled) {
            subscription.cancel();
            return;
        }
        subscription.request(1);
    }

    @Override
    public void onNext(final T value) {
        if (got) {
            return;
        }
        got = true;
        upstream.cancel(); // one answer: the rest is not wanted
        call.answer(CallHeaderFlyweight.VALUE, value, codec, null);
    }

    @Override
    public void onError(final Throwable error) {
        if (!got) {
            got = true;
            call.answer(CallHeaderFlyweight.ERROR, null, null, error);
        }
    }

    @Override
    public void onComplete() {
        if (!got) {
            got = true;
            call.answer(CallHeaderFlyweight.EMPTY, null, null, null);
        }
    }

    // ------------------------------------------------------------------------------------------------ the subscriber's side

    @Override
    public void request(final long n) {
        // a Mono<Void> delivers no element: demand changes nothing
    }

    @Override
    public void cancel() {
        cancelled = true;
        cancelUpstream();
        call.answer(CallHeaderFlyweight.EMPTY, null, null, null); // unless answered already
    }

    void cancelUpstream() {
        final Subscription subscription = upstream;
        if (subscription != null) {
            subscription.cancel();
        }
    }

    /** The answer was written (loop). */
    void written() {
        if (DONE.compareAndSet(this, false, true) && !cancelled) {
            actual.onComplete();
        }
    }

    /** The answer could not go out (loop). */
    void failed(final Throwable error) {
        if (DONE.compareAndSet(this, false, true) && !cancelled) {
            actual.onError(error);
        } else if (actual != null) {
            Operators.onErrorDropped(error, actual.currentContext());
        }
    }
}
