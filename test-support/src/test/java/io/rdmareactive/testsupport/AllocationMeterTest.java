package io.rdmareactive.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AllocationMeterTest {

    private Object sink;
    private long counter;

    @Test
    void aRoundThatAllocatesIsCaughtAndTheMessageSaysHowMuch() {
        final long allocated = AllocationMeter.currentThread().allocatedBy(1_000, 10_000,
            () -> sink = new long[4]);

        assertThat(allocated).as("10 000 arrays of 4 longs").isGreaterThanOrEqualTo(10_000L * 48);
        assertThatThrownBy(() -> AllocationMeter.assertNothingPerRound(allocated, 10_000, "rounds of new long[4]"))
            .isInstanceOf(AssertionError.class)
            .hasMessageContaining("heap bytes allocated by 10000 rounds of new long[4]: " + allocated)
            .hasMessageContaining("expected fewer than 1000");
    }

    @Test
    void aRoundThatAllocatesNothingPasses() {
        final long allocated = AllocationMeter.currentThread().allocatedBy(20_000, 100_000, () -> counter++);

        AllocationMeter.assertNothingPerRound(allocated, 100_000, "rounds of counting");
        assertThat(counter).isEqualTo(120_000);
    }

    @Test
    void anotherThreadsAllocationsAreMeteredByItsId() throws InterruptedException {
        final CountDownLatch go = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch end = new CountDownLatch(1);
        final Thread allocating = Thread.ofPlatform().start(() -> {
            try {
                go.await();
                for (int i = 0; i < 1_000; i++) {
                    sink = new byte[1024];
                }
                done.countDown();
                end.await();
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            final AllocationMeter meter = AllocationMeter.threads(allocating.threadId());
            final long before = meter.bytes();
            go.countDown();
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();

            assertThat(meter.bytes() - before).as("1 000 arrays of 1 KiB on the metered thread")
                .isGreaterThanOrEqualTo(1_000L * 1024);
        } finally {
            end.countDown();
            allocating.join();
        }
    }

    @Test
    void theLeastOfSeveralRunsIsJudged() {
        final long least = AllocationMeter.currentThread().leastAllocatedBy(1_000, 10_000, 5, () -> counter++);

        assertThat(least).isLessThan(10_000 / 2);
    }
}
