package io.rdmareactive.samples;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one worker of a {@link RemoteLookup} phase saw: its lookups' latencies, hits, misses, READs, and what was
 * wrong. A worker runs one lookup at a time and records on whichever thread completes it (the connection's event
 * loop); the phase reads the tallies only after every worker has finished.
 */
final class LookupTally {

    private static final long HIGHEST_NANOS = 60_000_000_000L;
    private static final int FAILURES_KEPT = 5;

    final Histogram latencies = new Histogram(HIGHEST_NANOS, 3);
    long hits;
    long misses;
    long reads;
    long secondReads;
    long wrong;
    final List<String> failures = new ArrayList<>();

    /** Records one lookup's latency. */
    void record(final long nanos) {
        latencies.recordValue(Math.min(Math.max(nanos, 0), HIGHEST_NANOS));
    }

    /** Counts a lookup whose outcome was wrong, keeping the first few descriptions. */
    void wrong(final String what) {
        wrong++;
        if (failures.size() < FAILURES_KEPT) {
            failures.add(what);
        }
    }

    /** Adds {@code other}'s counts and latencies to this one's. */
    void add(final LookupTally other) {
        latencies.add(other.latencies);
        hits += other.hits;
        misses += other.misses;
        reads += other.reads;
        secondReads += other.secondReads;
        wrong += other.wrong;
        other.failures.stream().limit(Math.max(0, FAILURES_KEPT - failures.size())).forEach(failures::add);
    }

    /** @return the lookups counted */
    long lookups() {
        return hits + misses + wrong;
    }
}
