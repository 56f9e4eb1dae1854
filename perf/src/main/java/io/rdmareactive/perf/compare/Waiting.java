package io.rdmareactive.perf.compare;

import java.util.function.BooleanSupplier;

/** Waiting on the coordinating thread while the measured threads work, reporting progress. */
final class Waiting {

    private Waiting() {
    }

    /** Sleeps {@code millis} in steps of 100 ms, reporting progress and running {@code check} at every step. */
    static void sleep(final long millis, final long progressBase, final Progress.Point progress, final Runnable check)
        throws InterruptedException {
        final long start = System.nanoTime();
        long elapsed;
        while ((elapsed = (System.nanoTime() - start) / 1_000_000) < millis) {
            Thread.sleep(Math.min(100, millis - elapsed));
            progress.at(progressBase + elapsed);
            check.run();
        }
    }

    /** Waits until {@code condition} holds, at most {@code millis}; returns whether it held. */
    static boolean until(final BooleanSupplier condition, final long millis) throws InterruptedException {
        final long deadline = System.nanoTime() + millis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}
