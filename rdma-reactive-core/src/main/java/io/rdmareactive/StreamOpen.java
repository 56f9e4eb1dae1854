package io.rdmareactive;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * The {@code Mono} of a stream this side opens for a call (fire-and-forget, request/stream, channel): it emits the
 * open {@link StreamChannel} once the connection's loop has opened it.
 *
 * <p>A stream handed over is a resource: its use has begun on both sides, and only ending both its directions gives
 * it back. So the hand-over and a cancel decide, by one atomic state, who owns the stream: the subscriber (it was
 * emitted) or nobody (the call was cancelled first), and in the second case the loop finishes the use at once (an
 * empty request, the answer drained). {@code Mono.create} cannot be used for this: a cancel racing its
 * {@code success} may drop the value without discarding it, and the stream would stay open for good.
 */
final class StreamOpen extends Mono<StreamChannel> {

    private final DefaultConnection connection;
    private final StreamKind kind;

    StreamOpen(final DefaultConnection connection, final StreamKind kind) {
        this.connection = connection;
        this.kind = kind;
    }

    @Override
    public void subscribe(final CoreSubscriber<? super StreamChannel> actual) {
        final Opening opening = new Opening(connection, actual);
        actual.onSubscribe(opening);
        connection.open(opening, () -> connection.openOnLoop(kind, opening));
    }

    /** One subscription: the subscriber's {@link Subscription} and the loop's {@link DefaultConnection.Opener}. */
    private static final class Opening implements Subscription, DefaultConnection.Opener {

        private static final int REQUESTED = 1;
        private static final int OPENED = 2;
        private static final int CANCELLED = 4;
        /** Emitted or failed: nothing more happens. */
        private static final int DONE = 8;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Opening.class, "state", int.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final DefaultConnection connection;
        private final CoreSubscriber<? super StreamChannel> actual;
        @SuppressWarnings("unused") // through STATE
        private volatile int state;
        /** The stream and its use, written on the loop before {@link #OPENED} is set. */
        private StreamChannel channel;
        private int use;

        Opening(final DefaultConnection connection, final CoreSubscriber<? super StreamChannel> actual) {
            this.connection = connection;
            this.actual = actual;
        }

        @Override
        public void request(final long n) {
            if (n <= 0) { // §3.9: the call ends with an error, and a stream opened for it comes back
                if (giveUp()) {
                    actual.onError(reactor.core.Exceptions.nullOrNegativeRequestException(n));
                }
                return;
            }
            int current;
            int next;
            do {
                current = (int) STATE.getVolatile(this);
                if ((current & (REQUESTED | CANCELLED | DONE)) != 0) {
                    return;
                }
                next = current | REQUESTED | ((current & OPENED) != 0 ? DONE : 0);
            } while (!STATE.compareAndSet(this, current, next));
            if ((next & DONE) != 0) {
                emit();
            }
        }

        @Override
        public void cancel() {
            giveUp();
        }

        /** @return true if this ended the call (nothing had been emitted or failed, and no cancel came before) */
        private boolean giveUp() {
            int current;
            do {
                current = (int) STATE.getVolatile(this);
                if ((current & (CANCELLED | DONE)) != 0) {
                    return false;
                }
            } while (!STATE.compareAndSet(this, current, current | CANCELLED));
            if ((current & OPENED) != 0) { // opened, not handed over: nobody else will end this use
                final StreamChannel opened = channel;
                final int openedUse = use;
                connection.onLoop(() -> opened.finishServing(openedUse));
            }
            return true;
        }

        @Override
        public void opened(final StreamChannel opened) {
            channel = opened;
            use = opened.use();
            int current;
            int next;
            do {
                current = (int) STATE.getVolatile(this);
                if ((current & CANCELLED) != 0) {
                    opened.finishServing(use); // on the loop already
                    return;
                }
                next = current | OPENED | ((current & REQUESTED) != 0 ? DONE : 0);
            } while (!STATE.compareAndSet(this, current, next));
            if ((next & DONE) != 0) {
                emit();
            }
        }

        private void emit() {
            actual.onNext(channel);
            actual.onComplete();
        }

        @Override
        public void refused(final Throwable error) {
            int current;
            do {
                current = (int) STATE.getVolatile(this);
                if ((current & CANCELLED) != 0) {
                    return; // the subscriber gave the call up: a refusal is owed to nobody
                }
                if ((current & DONE) != 0) {
                    Operators.onErrorDropped(error, actual.currentContext());
                    return;
                }
            } while (!STATE.compareAndSet(this, current, current | DONE));
            actual.onError(error);
        }

        @Override
        public boolean isCancelled() {
            return ((int) STATE.getVolatile(this) & CANCELLED) != 0;
        }
    }
}
