package io.rdmareactive.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

/**
 * Counts the heap bytes threads allocate while a hot path runs, with the JVM's own per-thread counters
 * ({@code com.sun.management.ThreadMXBean}): exact, and independent of the collector. A test that meters is skipped,
 * saying why, on a JVM without such counters.
 *
 * <pre>{@code
 * final long allocated = AllocationMeter.currentThread().allocatedBy(WARM_UP, ROUNDS, round);
 * AllocationMeter.assertNothingPerRound(allocated, ROUNDS, "rounds of posting and polling");
 * }</pre>
 */
public final class AllocationMeter {

    private final com.sun.management.ThreadMXBean threads;
    /** The metered threads; null for the calling thread, read without allocating. */
    private final long[] ids;

    private AllocationMeter(final long[] ids) {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
            "this JVM cannot count a thread's allocations");
        this.threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation counting unsupported");
        threads.setThreadAllocatedMemoryEnabled(true);
        this.ids = ids == null ? null : ids.clone();
    }

    /** @return a meter of the allocations of the thread that calls its methods */
    public static AllocationMeter currentThread() {
        return new AllocationMeter(null);
    }

    /** @return a meter of the allocations of the threads given (by {@link Thread#threadId()}), all together */
    public static AllocationMeter threads(final long... threadIds) {
        return new AllocationMeter(threadIds);
    }

    /** @return the bytes the metered threads allocated so far, all together */
    public long bytes() {
        if (ids == null) {
            return threads.getCurrentThreadAllocatedBytes();
        }
        long total = 0;
        for (final long allocated : threads.getThreadAllocatedBytes(ids)) {
            total += allocated;
        }
        return total;
    }

    /** @return the bytes the metered threads allocated while {@code work} ran on this one */
    public long allocatedBy(final Runnable work) {
        final long before = bytes();
        work.run();
        return bytes() - before;
    }

    /**
     * Runs {@code round} {@code warmUp} times (classes loaded, code compiled), then {@code rounds} times metered.
     *
     * @return the bytes the metered threads allocated during the metered rounds
     */
    public long allocatedBy(final int warmUp, final int rounds, final Runnable round) {
        for (int i = 0; i < warmUp; i++) {
            round.run();
        }
        return allocatedBy(() -> {
            for (int i = 0; i < rounds; i++) {
                round.run();
            }
        });
    }

    /**
     * Runs {@code call} {@code warmUp} times, then meters up to {@code attempts} runs of {@code calls} calls each,
     * stopping at the first below half a byte a call. One-off allocations unrelated to the call (the JIT replacing the
     * loop mid-run, class initialisation) can land in any single run; an allocation per call shows in every one.
     *
     * @return the least bytes the metered threads allocated during one metered run
     */
    public long leastAllocatedBy(final int warmUp, final int calls, final int attempts, final Runnable call) {
        for (int i = 0; i < warmUp; i++) {
            call.run();
        }
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < attempts && least >= calls / 2; attempt++) {
            least = Math.min(least, allocatedBy(() -> {
                for (int i = 0; i < calls; i++) {
                    call.run();
                }
            }));
        }
        return least;
    }

    /**
     * Asserts that {@code allocated} bytes over {@code rounds} rounds are no allocation per round: fewer than one byte
     * for every ten rounds. One object a round would be at least 16 bytes a round; what the JVM itself allocates now
     * and then on a thread (a deoptimisation, a recompilation) is a few hundred bytes in all, whatever the rounds.
     *
     * @param what what a round does, for the message ("rounds of posting and polling")
     * @throws AssertionError naming the bytes, the rounds and the bytes a round
     */
    public static void assertNothingPerRound(final long allocated, final long rounds, final String what) {
        assertBelow(allocated, rounds / 10, rounds, what);
    }

    /**
     * Asserts that {@code allocated} bytes over {@code rounds} rounds stay below {@code limit} bytes in all.
     *
     * @throws AssertionError naming the bytes, the limit, the rounds and the bytes a round
     */
    public static void assertBelow(final long allocated, final long limit, final long rounds, final String what) {
        if (allocated >= limit) {
            throw new AssertionError(String.format(java.util.Locale.ROOT, "heap bytes allocated by %d %s: %d (%.2f "
                + "a round), expected fewer than %d: something on this path allocates", rounds, what, allocated,
                (double) allocated / rounds, limit));
        }
    }
}
