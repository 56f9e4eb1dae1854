package io.rdmareactive.samples;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How far a link's sends got: how many slices were handed to the transport, and how many of them it wrote (and so
 * no longer reads from their arrays). Written slices are counted by whichever thread encodes them, one at a time
 * (the outbound stream encodes its messages in order), and wake the rank's thread.
 */
final class SendProgress {

    private final LinkWaiter waiter;
    private final AtomicLong written = new AtomicLong();
    private long handed;

    /** @param waiter woken at each written slice */
    SendProgress(final LinkWaiter waiter) {
        this.waiter = waiter;
    }

    /** Counts a slice handed to the transport (the rank's thread). */
    void handed() {
        handed++;
    }

    /** @return the slices handed to the transport and not yet written */
    long pending() {
        return handed - written.get();
    }

    /** Counts a slice written, and wakes the rank's thread. */
    void written() {
        written.incrementAndGet();
        waiter.wake();
    }
}
