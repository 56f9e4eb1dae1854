package io.rdmareactive;

import io.rdmareactive.internal.protocol.OneSidedOperation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import org.reactivestreams.Subscription;

/**
 * One subscription to a one-sided operation: the first request hands it to the connection's loop, which posts it and
 * signals its outcome, on the loop, once the adapter completed it. Cancelling stops the signal, not the operation: one
 * already handed to the loop runs to completion (its local region stays in use until then).
 */
final class OneSidedCall implements Subscription, Runnable, OneSidedOperation {

    private static final int NEW = 0;
    private static final int SUBMITTED = 1;
    private static final int DONE = 2;

    private final RemoteRegion region;
    private final RemoteOperation operation;
    private final CoreSubscriber<? super Long> actual;
    /** Emits the result ({@code onNext}) before completing; a Mono of Void only completes. */
    private final boolean emits;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(OneSidedCall.class, "state", int.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** {@link #NEW}, {@link #SUBMITTED} or {@link #DONE}, through {@link #STATE}. */
    private volatile int state = NEW;
    private volatile boolean cancelled;

    private OneSidedCall(final RemoteRegion region, final RemoteOperation operation,
                         final CoreSubscriber<? super Long> actual, final boolean emits) {
        this.region = region;
        this.operation = operation;
        this.actual = actual;
        this.emits = emits;
    }

    /** @return a Mono that runs {@code operation} on {@code region} once per subscription */
    @SuppressWarnings("unchecked")
    static <T> Mono<T> mono(final RemoteRegion region, final RemoteOperation operation, final boolean emits) {
        final Throwable refused = region.check(operation);
        if (refused != null) {
            return Mono.error(refused);
        }
        return (Mono<T>) new Mono<Long>() {
            @Override
            public void subscribe(final CoreSubscriber<? super Long> actual) {
                actual.onSubscribe(new OneSidedCall(region, operation, actual, emits));
            }
        };
    }

    @Override
    public void request(final long n) {
        if (n <= 0) {
            if ((int) STATE.getAndSet(this, DONE) != DONE) {
                actual.onError(Operators.onOperatorError(new IllegalArgumentException(
                    "§3.9 violated: positive request amount required but it was " + n), actual.currentContext()));
            }
            return;
        }
        if (!STATE.compareAndSet(this, NEW, SUBMITTED)) {
            return;
        }
        if (operation.local != null && !operation.local.retain()) {
            state = DONE;
            actual.onError(new IllegalStateException("the local region of the " + operation.name() + " is closed"));
            return;
        }
        region.connection().submitOneSided(this);
    }

    @Override
    public void cancel() {
        cancelled = true;
        STATE.compareAndSet(this, NEW, DONE);
    }

    /** On the loop, handed over as a task: the connection takes the operation, or refuses it. */
    @Override
    public void run() {
        region.connection().oneSidedTask(this);
    }

    /** @return the refusal of an operation on a region the peer announced closed, or null (loop) */
    Throwable refusedAsClosed() {
        return region.closedRefusal(operation);
    }

    /** The connection could not take the operation (it ended, or is full): nothing was posted. */
    void refused(final Throwable error) {
        finish(null, error);
    }

    @Override
    public void onCompleted(final long original) {
        finish(operation.isAtomic() ? original : operation.length, null);
    }

    @Override
    public void onFailed(final int status, final String reason) {
        finish(null, region.failure(operation, status, reason));
    }

    private void finish(final Long value, final Throwable error) {
        if (operation.local != null) {
            operation.local.release();
        }
        if (cancelled || (int) STATE.getAndSet(this, DONE) == DONE) {
            return;
        }
        if (error != null) {
            actual.onError(error);
            return;
        }
        if (emits) {
            actual.onNext(value);
        }
        actual.onComplete();
    }

    // the operation as the protocol posts it

    @Override
    public int opcode() {
        return operation.opcode;
    }

    @Override
    public long localAddress() {
        return operation.local == null ? 0 : operation.local.address(operation.localOffset);
    }

    @Override
    public int length() {
        return operation.length;
    }

    @Override
    public int lkey() {
        return operation.local == null ? 0 : operation.local.lkey();
    }

    @Override
    public long remoteAddress() {
        return region.descriptor().address() + operation.offset;
    }

    @Override
    public int rkey() {
        return region.descriptor().key();
    }

    @Override
    public long compareAdd() {
        return operation.compareAdd;
    }

    @Override
    public long swap() {
        return operation.swap;
    }
}
