package io.rdmareactive.perf.compare;

/**
 * A fixed schedule: the {@code n}th event is due at {@code start + n * interval}. The fixed-rate ping-pong sends on
 * it (and measures each round trip from the time it was due, not from when it could leave: the correction for
 * coordinated omission), and the throttled consumer waits on it.
 */
final class Pacer {

    private final long start;
    private final double intervalNanos;

    /**
     * @param startNanos   when event 0 is due ({@link System#nanoTime()} time)
     * @param perSecond    events per second, more than 0
     */
    Pacer(final long startNanos, final double perSecond) {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("a rate must be more than 0 per second, not " + perSecond);
        }
        this.start = startNanos;
        this.intervalNanos = 1e9 / perSecond;
    }

    /** @return when event {@code n} is due */
    long due(final long n) {
        return start + (long) (n * intervalNanos);
    }

    /**
     * The latency of a reply, corrected for coordinated omission: measured from when its request was due, so a
     * stall that delayed later sends counts against each of them.
     *
     * @param n           the request's number
     * @param replyNanos  when its reply arrived
     * @return {@code replyNanos - due(n)}
     */
    long correctedLatency(final long n, final long replyNanos) {
        return replyNanos - due(n);
    }
}
