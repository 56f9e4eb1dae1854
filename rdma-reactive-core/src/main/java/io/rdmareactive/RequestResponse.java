package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeoutException;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * {@link Connection#requestResponse}'s {@code Mono}: each subscription is one call, a {@link Call}, which is at once
 * the subscriber's subscription, the task that opens its stream on the connection's loop, the stream's opener, the
 * reader of the answer and the completion of the request's send. A call costs its loop one task (none when it is
 * made on the loop), its deadline a timer on the loop's wheel, and no operator chain.
 *
 * @param <Q> the request
 * @param <R> the answer
 */
final class RequestResponse<Q, R> extends Mono<R> {

    private final DefaultConnection connection;
    /** The request, as the one element its send takes (made once: each subscription sends it again). */
    private final Mono<Q> request;
    private final Codec<Q> requestCodec;
    private final Codec<R> responseCodec;

    RequestResponse(final DefaultConnection connection, final Q request, final Codec<Q> requestCodec,
                    final Codec<R> responseCodec) {
        this.connection = connection;
        this.request = Mono.just(request); // null fails here, on the caller's thread
        this.requestCodec = requestCodec;
        this.responseCodec = responseCodec;
    }

    @Override
    public void subscribe(final CoreSubscriber<? super R> actual) {
        final Call<Q, R> call = new Call<>(this, actual);
        actual.onSubscribe(call);
        connection.open(call, call);
    }

    /**
     * One call. Its deadline counts from when its loop first sees it, waiting for a free stream included; it ends
     * once: with the answer (or empty, if the answer stream completes without one), an error, the deadline, or a
     * cancel. What ended it first wins; a later answer is dropped.
     */
    private static final class Call<Q, R> implements Subscription, Runnable, DefaultConnection.Opener,
        CoreSubscriber<R>, OutboundStream.Completion {

        private static final VarHandle DONE;

        static {
            try {
                DONE = MethodHandles.lookup().findVarHandle(Call.class, "done", boolean.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final RequestResponse<Q, R> call;
        private final CoreSubscriber<? super R> actual;
        private final EventLoop loop;
        private volatile boolean done;
        private volatile boolean cancelled;
        /** The answer's subscription and the request's send, once the stream is open (loop). */
        private volatile Subscription answer;
        private volatile OutboundStream<Q> sender;
        /** The deadline's timer on the loop, or -1 (loop only). */
        private long timerId = -1;
        private R value;
        /** The stream, once open (set on the loop before the send starts). */
        private volatile StreamChannel channel;

        Call(final RequestResponse<Q, R> call, final CoreSubscriber<? super R> actual) {
            this.call = call;
            this.actual = actual;
            this.loop = call.connection.loop();
        }

        // -------------------------------------------------------------------------------- the subscriber's side

        @Override
        public void request(final long n) {
            // one answer at most, delivered whatever the positive demand: a Mono's subscriber asks by subscribing
            if (n <= 0) {
                fail(new IllegalArgumentException("§3.9: request(n) needs n > 0, not " + n));
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            if (DONE.compareAndSet(this, false, true)) {
                onLoop(this::abandon);
            }
        }

        // -------------------------------------------------------------------------------- on the loop

        /**
         * The loop takes the call (first run): its deadline is armed, with this as the timer's task, then its stream
         * opened (or it waits for one). Any later run is the deadline.
         */
        @Override
        public void run() {
            if (taken) {
                expire();
                return;
            }
            taken = true;
            if (done) {
                return;
            }
            timerId = loop.schedule(System.nanoTime() + call.connection.requestTimeout().toNanos(), this);
            call.connection.openOnLoop(StreamKind.REQUEST_RESPONSE, this);
        }

        /** The loop has taken the call (loop only): a run from now on is its deadline. */
        private boolean taken;

        @Override
        public void opened(final StreamChannel opened) {
            channel = opened;
            // a use began: it runs its exchange to the end even if the call ended meanwhile (its answer is dropped),
            // so that both sides agree on the stream's uses
            opened.subscribeInbound(call.responseCodec, this);
            final OutboundStream<Q> send = opened.startSend(call.request, call.requestCodec, this);
            if (send == null) {
                fail(new IllegalStateException("a send is already running on a newly opened stream"));
                return;
            }
            sender = send;
            send.start();
        }

        @Override
        public void refused(final Throwable error) {
            fail(error);
        }

        @Override
        public boolean isCancelled() {
            return done;
        }

        // -------------------------------------------------------------------------------- the answer (loop)

        @Override
        public void onSubscribe(final Subscription subscription) {
            answer = subscription;
            subscription.request(1);
            if (cancelled) {
                subscription.cancel();
            }
        }

        @Override
        public void onNext(final R next) {
            value = next;
        }

        @Override
        public void onError(final Throwable error) {
            fail(error);
        }

        @Override
        public void onComplete() {
            if (DONE.compareAndSet(this, false, true)) {
                disarm();
                final R answered = value;
                value = null;
                if (answered != null) {
                    actual.onNext(answered);
                }
                actual.onComplete();
            }
        }

        // -------------------------------------------------------------------------------- the request's send

        @Override
        public void sent() {
            channel.outboundEnded();
        }

        @Override
        public void failed(final Throwable error) {
            channel.outboundEnded();
            fail(error);
        }

        // -------------------------------------------------------------------------------- ends

        private void fail(final Throwable error) {
            if (DONE.compareAndSet(this, false, true)) {
                disarm();
                actual.onError(error);
            } else {
                Operators.onErrorDropped(error, actual.currentContext());
            }
        }

        /** The deadline passed (loop). */
        private void expire() {
            timerId = -1;
            if (DONE.compareAndSet(this, false, true)) {
                abandon();
                actual.onError(new TimeoutException("no answer from " + call.connection.peer() + " within "
                    + call.connection.requestTimeout() + " (RdmaClient.requestTimeout)"));
            }
        }

        /** Cancelled or timed out (loop): the answer is not awaited any more, the request not sent if it waits. */
        private void abandon() {
            disarm();
            final Subscription reading = answer;
            if (reading != null) {
                reading.cancel();
            }
            final OutboundStream<Q> send = sender;
            if (send != null) {
                send.cancel();
            }
        }

        private void disarm() {
            if (loop.inLoop()) {
                cancelTimer();
            } else {
                onLoop(this::cancelTimer);
            }
        }

        private void cancelTimer() {
            if (timerId >= 0) {
                loop.cancel(timerId);
                timerId = -1;
            }
        }

        private void onLoop(final Runnable task) {
            if (loop.inLoop()) {
                task.run();
            } else {
                loop.execute(task);
            }
        }
    }
}
