package io.rdmareactive.perf.compare;

import io.rdmareactive.RemoteOperation;
import io.rdmareactive.RemoteRegion;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Sinks;

/**
 * Many one-sided operations in flight through {@code RemoteRegion.execute}: {@code depth} are handed to it at the
 * start, and each result, checked, hands it the next, until the time is up; so at most {@code depth} are in flight,
 * and the operation in local slot {@code index % depth} is never given to the adapter while the previous one of that
 * slot is (which would make its check race).
 */
final class OneSidedWindow {

    private final RemoteRegion remote;
    private final OneSidedOperations operations;
    private final int depth;
    private final long timeoutNanos;

    /** What one run counted. @param elapsedNanos from the first operation to the last result */
    record Outcome(long completed, long elapsedNanos) {
    }

    /** @param timeoutNanos how long past its time a run may take to end before it fails */
    OneSidedWindow(final RemoteRegion remote, final OneSidedOperations operations, final int depth,
                   final long timeoutNanos) {
        this.remote = remote;
        this.operations = operations;
        this.depth = depth;
        this.timeoutNanos = timeoutNanos;
    }

    /** Runs operations for {@code nanos}, then waits for those in flight. */
    Outcome run(final long nanos, final Progress.Point progress, final long progressBaseMillis) throws Exception {
        final Run run = new Run(System.nanoTime() + nanos);
        final long start = System.nanoTime();
        final CompletableFuture<Void> done = run.start();
        final long deadline = start + nanos + timeoutNanos;
        while (true) {
            try {
                done.get(100, TimeUnit.MILLISECONDS);
                return new Outcome(run.completed, System.nanoTime() - start);
            } catch (final TimeoutException ex) {
                progress.at(progressBaseMillis + Math.min(nanos, System.nanoTime() - start) / 1_000_000);
                if (System.nanoTime() > deadline) {
                    done.cancel(true);
                    throw new IllegalStateException(operations.name() + ": " + (run.issued - run.completed)
                        + " operations still in flight " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
                        + " s after the phase's time", ex);
                }
            } catch (final ExecutionException ex) {
                throw new IllegalStateException(operations.name() + " of " + operations.size() + " bytes, "
                    + depth + " in flight, failed: " + ex.getCause(), ex.getCause());
            }
        }
    }

    /**
     * One run's operations. The counters are written by the caller before {@code execute} is subscribed, then only on
     * the connection's event loop, which delivers the results one at a time.
     */
    private final class Run {

        private final long end;
        private final Sinks.Many<RemoteOperation> pending = Sinks.unsafe().many().unicast().onBackpressureBuffer();
        long issued;
        long completed;

        Run(final long end) {
            this.end = end;
        }

        CompletableFuture<Void> start() {
            while (issued < depth) {
                issue();
            }
            return remote.execute(pending.asFlux()).doOnNext(this::completed).then().toFuture();
        }

        private void completed(final long result) {
            final long index = completed++;
            operations.completed(index, (int) (index % depth), result);
            if (System.nanoTime() < end) {
                issue();
            } else if (completed == issued) {
                pending.tryEmitComplete().orThrow();
            }
        }

        private void issue() {
            final long index = issued++;
            pending.tryEmitNext(operations.pipelined(index, (int) (index % depth))).orThrow();
        }
    }
}
