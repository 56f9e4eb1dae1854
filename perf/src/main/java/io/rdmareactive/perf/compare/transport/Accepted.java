package io.rdmareactive.perf.compare.transport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting for a server to have taken a connection: streams are connected one after the other and the server numbers
 * them in the order its handler sees them, which may lag the client's side; waiting for each keeps the server's
 * stream {@code i} the client's link {@code i} (incast, for one, sends its probes on a stream of their own).
 */
final class Accepted {

    private Accepted() {
    }

    /** Waits until {@code accepted} reaches {@code count}, at most {@code timeout}. */
    static void await(final AtomicInteger accepted, final int count, final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (accepted.get() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server took " + accepted.get() + " of " + count
                    + " connections within " + timeout);
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
