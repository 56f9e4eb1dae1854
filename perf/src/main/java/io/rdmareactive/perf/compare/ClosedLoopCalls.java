package io.rdmareactive.perf.compare;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.IdleStrategy;

/**
 * One request-response call in flight at a time, issued by the calling thread: it subscribes to
 * {@code Connection.requestResponse}, idles with the run's strategy until the answer is in (as the ping-pong waits
 * for its echo), checks the answer, records the round trip, and issues the next call on the next connection of the
 * ring (one connection: always the same). A refused attempt ({@code RdmaStreamsBusyException}) is counted and tried
 * again; the round trip counts from the first attempt.
 */
final class ClosedLoopCalls {

    private final Caller[] callers;
    private final Answers answers;
    private final IdleStrategy idle;
    private final long giveUpNanos;
    private byte[] request;
    private long sequence;
    private int next;

    /** The outcome of one call, set on the library's thread. */
    private static final class Outcome {
        volatile int state; // 0 pending, 1 answered, 2 failed
        byte[] answer;
        Throwable error;
    }

    /**
     * @param callTimeoutNanos the client's request timeout: a call with no outcome a second after it is a hang, and
     *                         fails the point
     */
    ClosedLoopCalls(final Caller[] callers, final Answers answers, final IdleStrategy idle,
                    final long callTimeoutNanos) {
        this.callers = callers.clone();
        this.answers = answers;
        this.idle = idle;
        this.giveUpNanos = callTimeoutNanos + TimeUnit.SECONDS.toNanos(1);
        this.request = answers.request(0);
    }

    /**
     * Calls for {@code nanos}.
     *
     * @param histogram where the round trips go (microsecond resolution as the ping-pong's), or null (warm-up)
     * @return how many calls were answered
     */
    long run(final long nanos, final Histogram histogram, final Progress.Point progress,
             final long progressBaseMillis) {
        final long start = System.nanoTime();
        final long end = start + nanos;
        long answered = 0;
        long nextReport = start;
        for (long now = start; now < end; ) {
            final long roundTrip = call();
            now = System.nanoTime();
            if (roundTrip >= 0) {
                answered++;
                if (histogram != null) {
                    histogram.recordValue(Math.min(roundTrip, PingPongWorkload.HIGHEST_NANOS));
                }
            }
            if (now >= nextReport) {
                progress.at(progressBaseMillis + (now - start) / 1_000_000);
                nextReport = now + 100_000_000;
            }
        }
        return answered;
    }

    /** @return the round trip in nanoseconds, or -1 if the call failed */
    private long call() {
        final long current = sequence++;
        final Caller caller = callers[next];
        next = next + 1 == callers.length ? 0 : next + 1;
        Answers.renumber(request, current);
        final long start = System.nanoTime();
        final long deadline = start + giveUpNanos;
        while (true) {
            final Outcome outcome = new Outcome();
            caller.call(request).defaultIfEmpty(Answers.NONE)
                .subscribe(answer -> {
                    outcome.answer = answer;
                    outcome.state = 1;
                }, error -> {
                    outcome.error = error;
                    outcome.state = 2;
                });
            idle.reset();
            int state;
            while ((state = outcome.state) == 0) {
                idle.idle();
                checkDeadline(deadline, current);
            }
            if (state == 1) {
                final long roundTrip = System.nanoTime() - start;
                answers.check(outcome.answer, current);
                return roundTrip;
            }
            if (answers.refusal(outcome.error)) {
                checkDeadline(deadline, current);
                idle.idle();
                continue; // nothing was sent: the same request again
            }
            answers.failed(outcome.error);
            request = answers.request(sequence); // the failed call may still hold the old array
            return -1;
        }
    }

    /** The description is made only on failure: this runs on every idle turn. */
    private static void checkDeadline(final long deadline, final long call) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("call " + call + " neither answered nor failed within its timeout");
        }
    }
}
