package io.rdmareactive.spi.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.CompletionQueue;
import java.util.ArrayList;
import java.util.List;

/** Polling completion queues into {@link CompletionRecord}s. */
final class Completions {

    private Completions() {
    }

    /**
     * Polls until exactly {@code count} completions came (never taking more than that from the queue).
     *
     * @throws AssertionError if they do not come within {@link Await#BOUND}, or the queue overran
     */
    static List<CompletionRecord> await(final CompletionQueue cq, final int count, final String what) {
        final List<CompletionRecord> collected = new ArrayList<>(count);
        Await.until(() -> count + " completions on the " + what + "; got " + collected.size() + ": " + collected, () -> {
            final int polled = cq.poll(c -> collected.add(CompletionRecord.copyOf(c)), count - collected.size());
            assertThat(polled).as("poll of the %s (after %s)", what, collected)
                .isNotEqualTo(CompletionQueue.OVERRUN);
            return collected.size() >= count;
        });
        return collected;
    }

    /** @return whatever completions the queue holds now, without waiting */
    static List<CompletionRecord> drainNow(final CompletionQueue cq) {
        final List<CompletionRecord> collected = new ArrayList<>();
        int polled;
        do {
            polled = cq.poll(c -> collected.add(CompletionRecord.copyOf(c)), 64);
            assertThat(polled).isNotEqualTo(CompletionQueue.OVERRUN);
        } while (polled > 0);
        return collected;
    }
}
