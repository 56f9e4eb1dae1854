package io.rdmareactive.perf.compare;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.IdleStrategy;

/**
 * One one-sided operation in flight at a time, issued by the calling thread: it subscribes to the operation's
 * {@code Mono}, idles with the run's strategy until the completion is in (the signal comes on the connection's event
 * loop), checks it, records the time from the subscription to the completion, and issues the next one.
 */
final class OneSidedLoop {

    private final OneSidedOperations operations;
    private final IdleStrategy idle;
    private final long giveUpNanos;
    private long index;

    /** The outcome of one operation, set on the event loop. */
    private static final class Outcome {
        volatile int state; // 0 pending, 1 completed, 2 failed
        long result;
        Throwable error;
    }

    /** @param timeoutNanos an operation with no outcome after this long is a hang, and fails the phase */
    OneSidedLoop(final OneSidedOperations operations, final IdleStrategy idle, final long timeoutNanos) {
        this.operations = operations;
        this.idle = idle;
        this.giveUpNanos = timeoutNanos;
    }

    /**
     * Runs operations for {@code nanos}.
     *
     * @param histogram where the operations' times go, or null (warm-up)
     * @return how many operations completed
     */
    long run(final long nanos, final Histogram histogram, final Progress.Point progress,
             final long progressBaseMillis) {
        final long start = System.nanoTime();
        final long end = start + nanos;
        long completed = 0;
        long nextReport = start;
        for (long now = start; now < end; ) {
            final long time = once();
            now = System.nanoTime();
            completed++;
            if (histogram != null) {
                histogram.recordValue(Math.min(time, PingPongWorkload.HIGHEST_NANOS));
            }
            if (now >= nextReport) {
                progress.at(progressBaseMillis + (now - start) / 1_000_000);
                nextReport = now + 100_000_000;
            }
        }
        return completed;
    }

    /** @return the operation's time in nanoseconds, once completed and checked */
    private long once() {
        final long current = index++;
        final Outcome outcome = new Outcome();
        outcome.result = operations.size(); // a read's or write's Mono completes empty: its result is its length
        final long start = System.nanoTime();
        operations.one(current).subscribe(value -> outcome.result = (Long) value, error -> {
            outcome.error = error;
            outcome.state = 2;
        }, () -> outcome.state = 1);
        idle.reset();
        final long deadline = start + giveUpNanos;
        int state;
        while ((state = outcome.state) == 0) {
            idle.idle();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(operations.name() + " " + current + " neither completed nor failed "
                    + "within " + TimeUnit.NANOSECONDS.toSeconds(giveUpNanos) + " s");
            }
        }
        final long time = System.nanoTime() - start;
        if (state == 2) {
            throw new IllegalStateException(operations.name() + " " + current + " of " + operations.size()
                + " bytes failed: " + outcome.error, outcome.error);
        }
        operations.completed(current, 0, outcome.result);
        return time;
    }
}
