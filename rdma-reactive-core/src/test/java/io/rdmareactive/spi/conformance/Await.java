package io.rdmareactive.spi.conformance;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waiting. The bounds are failure bounds only: a test never passes or fails because something was fast or
 * slow, it fails only when what it waits for never happens. Providers may complete work asynchronously (verbs), so
 * every observation of completions, events and states goes through here.
 */
final class Await {

    /** How long to wait for something a provider does by itself (a completion, an event, a state change). */
    static final Duration BOUND = Duration.ofSeconds(10);
    /** How long to wait for something a second JVM does (it has to start first, on a possibly busy machine). */
    static final Duration CHILD_BOUND = Duration.ofSeconds(60);

    private Await() {
    }

    /**
     * Waits until the condition holds.
     *
     * @param what  what is awaited, for the failure message
     * @param until the condition
     * @throws AssertionError if it does not hold within {@link #BOUND}
     */
    static void until(final Supplier<String> what, final BooleanSupplier until) {
        until(BOUND, what, until);
    }

    static void until(final Duration bound, final Supplier<String> what, final BooleanSupplier until) {
        final long deadline = System.nanoTime() + bound.toNanos();
        for (int attempt = 0; !until.getAsBoolean(); attempt++) {
            if (System.nanoTime() - deadline > 0) {
                if (until.getAsBoolean()) {
                    return;
                }
                throw new AssertionError("gave up after " + bound.toSeconds() + " s waiting for " + what.get());
            }
            pause(attempt);
        }
    }

    /** Backs off: a few spins, then yields, then short parks (never a busy spin on a shared 2-core machine). */
    static void pause(final int attempt) {
        if (attempt < 16) {
            Thread.onSpinWait();
        } else if (attempt < 32) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 10_000L << Math.min(attempt - 32, 7)));
        }
    }
}
