package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.driver.EventLoop;
import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * {@link Connection#requestResponse}'s {@code Mono}: each subscription is one call, a {@link Call}, which is at once
 * the subscriber's subscription, the task that hands it to the connection's loop, its deadline's timer task, and the
 * message its request and its cancel are sent as on the connection's call stream ({@link OutgoingCalls}). A call
 * costs its loop one task (none when it is made on the loop), its deadline a timer on the loop's wheel, and no
 * operator chain.
 *
 * @param <Q> the request
 * @param <R> the answer
 */
final class RequestResponse<Q, R> extends Mono<R> {

    private final DefaultConnection connection;
    private final Q request;
    private final Codec<Q> requestCodec;
    private final Codec<R> responseCodec;

    RequestResponse(final DefaultConnection connection, final Q request, final Codec<Q> requestCodec,
                    final Codec<R> responseCodec) {
        this.connection = connection;
        this.request = java.util.Objects.requireNonNull(request, "request"); // on the caller's thread
        this.requestCodec = java.util.Objects.requireNonNull(requestCodec, "requestCodec");
        this.responseCodec = java.util.Objects.requireNonNull(responseCodec, "responseCodec");
    }

    @Override
    public void subscribe(final CoreSubscriber<? super R> actual) {
        final Call<Q, R> call = new Call<>(this, actual);
        actual.onSubscribe(call);
        connection.submitCall(call);
    }

    /**
     * One call. Its deadline counts from when its loop first sees it, waiting for a call id included; it ends once:
     * with the answer (or empty), an error, the deadline, or a cancel. What ended it first wins; a later answer is
     * dropped. Its phase (loop only) follows it on the call stream.
     */
    static final class Call<Q, R> extends CallMessage implements Subscription, Runnable {

        private static final VarHandle DONE;

        static {
            try {
                DONE = MethodHandles.lookup().findVarHandle(Call.class, "done", boolean.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        /** Not yet on a call stream. */
        private static final int NEW = 0;
        /** Waiting for an id or for demand. */
        private static final int WAITING = 1;
        /** Given up while it waited: skipped. */
        private static final int DROPPED = 2;
        /** Has an id, handed to the stream's send. */
        private static final int EMITTED = 3;
        /** Given up after it was handed to the send: goes out as ABORTED, and its id comes back at once. */
        private static final int ABORT = 4;
        /** Its CALL was written: the answer is awaited. */
        private static final int SENT = 5;
        /** Given up after it was sent: its CANCEL waits to go out. */
        private static final int CANCEL_QUEUED = 6;
        /** Its CANCEL was handed to the send. */
        private static final int CANCEL_EMITTED = 7;
        /** Answered, aborted or failed with its stream. */
        private static final int FINISHED = 8;

        private final RequestResponse<Q, R> call;
        private final CoreSubscriber<? super R> actual;
        private final EventLoop loop;
        private volatile boolean done;
        /** The deadline's timer on the loop, or -1 (loop only). */
        private long timerId = -1;
        /** The loop has taken the call (loop only): a run from now on is its deadline. */
        private boolean taken;
        private int phase = NEW;
        private OutgoingCalls owner;
        /** What it was handed to the send as: CALL or CANCEL. */
        private int emittedAs;
        /** Why its request could not be encoded (loop). */
        private RuntimeException encodeFailure;

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
            if (DONE.compareAndSet(this, false, true)) {
                onLoop(this::abandon);
            }
        }

        // -------------------------------------------------------------------------------- on the loop

        /**
         * The loop takes the call (first run): its deadline is armed, with this as the timer's task, then it goes to
         * the connection's call stream. Any later run is the deadline.
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
            call.connection.callOnLoop(this);
        }

        void waiting(final OutgoingCalls calls) {
            owner = calls;
            phase = WAITING;
        }

        /** Its stream ended (loop). */
        void finished() {
            phase = FINISHED;
        }

        boolean isGivenUp() {
            return phase == DROPPED;
        }

        boolean isSent() {
            return phase == SENT || phase == CANCEL_QUEUED || phase == CANCEL_EMITTED;
        }

        void emitCall(final int id) {
            callId = id;
            phase = EMITTED;
            emittedAs = CallHeaderFlyweight.CALL;
        }

        /** @return true if its CANCEL is to go out now (not if its answer came meanwhile) */
        boolean emitCancel() {
            if (phase != CANCEL_QUEUED) {
                return false;
            }
            phase = CANCEL_EMITTED;
            emittedAs = CallHeaderFlyweight.CANCEL;
            return true;
        }

        @Override
        void prepare(final int maxBody) {
            bodyLength = 0;
            if (emittedAs == CallHeaderFlyweight.CANCEL) {
                type = CallHeaderFlyweight.CANCEL;
                return;
            }
            type = CallHeaderFlyweight.ABORTED;
            if (phase != EMITTED) {
                return; // given up before it went out
            }
            final int length;
            try {
                length = call.requestCodec.encodedLength(call.request);
            } catch (final RuntimeException ex) {
                encodeFailure = ex;
                return;
            }
            if (length > maxBody) {
                encodeFailure = new IllegalArgumentException(call.requestCodec.name() + " encoded a request of "
                    + length + " bytes, over the connection's maximum of " + maxBody);
                return;
            }
            bodyLength = length;
            type = CallHeaderFlyweight.CALL;
        }

        @Override
        void writeBody(final MutableDirectBuffer buffer, final int offset) {
            call.requestCodec.encode(call.request, buffer, offset, bodyLength);
        }

        @Override
        int bodyFailed(final RuntimeException error) {
            encodeFailure = error;
            return CallHeaderFlyweight.ABORTED;
        }

        @Override
        void written(final int writtenType) {
            if (writtenType == CallHeaderFlyweight.CALL) {
                phase = SENT;
            } else if (writtenType == CallHeaderFlyweight.ABORTED) {
                phase = FINISHED;
                owner.aborted(this);
                owner.afterWrite(this); // the call fails, and a waiting one may take the id, outside the encode
            }
        }

        @Override
        void afterWrite() {
            final RuntimeException failure = encodeFailure;
            if (failure != null) {
                encodeFailure = null;
                fail(new IllegalStateException("the request could not be encoded: " + failure.getMessage(), failure));
            }
            owner.emit();
        }

        /** The answer arrived (loop): {@code message} is valid only until this returns. */
        void answered(final int answerType, final DirectBuffer message) {
            phase = FINISHED;
            if (!DONE.compareAndSet(this, false, true)) {
                return; // given up: the answer is dropped
            }
            disarm();
            final int bodyOffset = CallHeaderFlyweight.LENGTH;
            final int bodyLength = message.capacity() - bodyOffset;
            switch (answerType) {
                case CallHeaderFlyweight.VALUE -> {
                    final R value;
                    try {
                        value = call.responseCodec.decode(message, bodyOffset, bodyLength);
                    } catch (final RuntimeException ex) {
                        actual.onError(ex);
                        return;
                    }
                    if (value != null) {
                        actual.onNext(value);
                    }
                    actual.onComplete();
                }
                case CallHeaderFlyweight.EMPTY -> actual.onComplete();
                case CallHeaderFlyweight.ERROR -> actual.onError(call.connection.remoteError(1,
                    message.getStringWithoutLengthUtf8(bodyOffset, bodyLength)));
                default -> actual.onError(new RdmaStreamException(1, "the peer could not encode its answer (its codec "
                    + "failed; the peer's log says why)"));
            }
        }

        // -------------------------------------------------------------------------------- ends

        /** Ends the call with {@code error}, unless it ended already (any thread). */
        void fail(final Throwable error) {
            if (phase == WAITING && loop.inLoop()) {
                phase = DROPPED; // skipped when its turn comes
                owner.ended(this);
            }
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
            cancelTimer();
            switch (phase) {
                case WAITING -> {
                    phase = DROPPED;
                    owner.ended(this);
                }
                case EMITTED -> phase = ABORT;
                case SENT -> {
                    phase = CANCEL_QUEUED;
                    owner.cancelSent(this);
                }
                default -> {
                    // not on a stream yet (run() sees it done), or its end is under way
                }
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
