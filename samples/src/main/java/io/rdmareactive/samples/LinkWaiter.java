package io.rdmareactive.samples;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How a rank's thread waits for its link: parked, woken by whoever made the progress it waits for (the event loop
 * that stored a slice, the thread that encoded one), and never longer than a deadline without progress. Parking
 * rather than spinning leaves the cores to the event loops, of which a small machine has fewer than ranks.
 */
public final class LinkWaiter {

    /** Parked at most this long at a time, in case a wake-up came between the check and the park. */
    private static final long PARK_NANOS = 200_000;

    private final Duration patience;
    private volatile Thread waiting;

    /** @param patience the longest a wait may last */
    public LinkWaiter(final Duration patience) {
        this.patience = patience;
    }

    /**
     * Returns once {@code done} is true.
     *
     * @param failure what went wrong on the link, or null while nothing did
     * @param what    what is waited for, for the exception's message
     * @throws IllegalStateException if {@code failure} gives something, or {@code done} is still false after the
     *     patience this waiter was made with
     */
    public void await(final BooleanSupplier done, final Supplier<Throwable> failure, final Supplier<String> what)
        throws InterruptedException {
        final long deadline = System.nanoTime() + patience.toNanos();
        waiting = Thread.currentThread();
        try {
            while (!done.getAsBoolean()) {
                final Throwable failed = failure.get();
                if (failed != null) {
                    throw new IllegalStateException("the ring link failed while waiting for " + what.get(), failed);
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for " + what.get());
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("no " + what.get() + " within " + patience);
                }
                LockSupport.parkNanos(this, PARK_NANOS);
            }
        } finally {
            waiting = null;
        }
    }

    /** Wakes the waiting thread, if one waits. */
    public void wake() {
        final Thread thread = waiting;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }
}
