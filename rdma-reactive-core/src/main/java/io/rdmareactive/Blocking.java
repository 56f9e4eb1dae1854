package io.rdmareactive;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * What {@link RdmaServer#bindNow} and {@link RdmaClient#connectNow} share: wait for a {@code Mono} within a bound,
 * throw its failure as it is (not wrapped as Reactor's {@code block} wraps checked ones), and on timeout or interrupt
 * cancel it and dispose of what it may still deliver, so that nothing it makes outlives the call unowned.
 */
final class Blocking {

    private Blocking() {
    }

    /**
     * @param mono    what to wait for; it must emit a value (a bound server, a connection) or fail
     * @param timeout how long to wait; positive
     * @param what    the call and its target, for the timeout's message (e.g. {@code connectNow() to 'quotes'})
     * @return the value
     * @throws IllegalStateException on timeout or interrupt, naming {@code what} and the bound
     */
    static <T extends Disposable> T await(final Mono<T> mono, final Duration timeout, final String what) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        final CompletableFuture<T> result = mono.toFuture();
        try {
            return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (final ExecutionException ex) {
            final Throwable cause = ex.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(what + " failed: " + cause, cause);
        } catch (final TimeoutException ex) {
            abandon(result);
            throw new IllegalStateException(what + " did not complete within " + timeout);
        } catch (final InterruptedException ex) {
            abandon(result);
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted", ex);
        } catch (final CancellationException ex) {
            throw new IllegalStateException(what + " was cancelled", ex);
        }
    }

    /** Cancels the wait; what completed in the meantime (the cancel came too late) is disposed of. */
    private static <T extends Disposable> void abandon(final CompletableFuture<T> result) {
        result.cancel(true);
        result.whenComplete((value, error) -> {
            if (value != null) {
                value.dispose();
            }
        });
    }
}
