package io.rdmareactive.internal.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The connection's worker runs what it is handed on its one thread, in order, also after it parked; a task that
 * throws does not stop it; a closed worker refuses work; requests from applications are refused before the queue is
 * so full that the data path's room shrinks; and handing over a preallocated task allocates nothing.
 * (Safety timeouts only; nothing here passes or fails on a timing.)
 */
class ConnectionWorkerTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    private ConnectionWorker worker;

    @AfterEach
    void close() {
        if (worker != null) {
            worker.close();
        }
    }

    private static ConnectionWorker start(final String name, final int streams) {
        return new ConnectionWorker(name, streams, new BackoffIdleStrategy());
    }

    @Test
    void runsEveryTaskOnceInOrderOnItsOneThreadFromManyThreads() throws Exception {
        worker = start("rdma-worker-test-order", 16);
        final int producers = 4;
        final int each = 5_000;
        final List<String> threads = Collections.synchronizedList(new ArrayList<>());
        final int[][] seen = new int[producers][1];
        final AtomicInteger outOfOrder = new AtomicInteger();
        final CountDownLatch all = new CountDownLatch(producers * each);
        final List<Thread> started = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int producer = p;
            final Thread thread = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    final int index = i;
                    while (!worker.execute(() -> {
                        if (seen[producer][0] != index) {
                            outOfOrder.incrementAndGet();
                        }
                        seen[producer][0] = index + 1;
                        if (index == 0) {
                            threads.add(Thread.currentThread().getName());
                        }
                        all.countDown();
                    })) {
                        Thread.onSpinWait();
                    }
                }
            });
            started.add(thread);
            thread.start();
        }
        for (final Thread thread : started) {
            thread.join(BOUND.toMillis());
        }
        assertThat(all.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("every task ran").isTrue();
        assertThat(outOfOrder.get()).as("tasks of one producer that ran out of the order they were handed over")
            .isZero();
        assertThat(threads).containsOnly("rdma-worker-test-order");
        for (int p = 0; p < producers; p++) {
            assertThat(seen[p][0]).as("tasks of producer %d that ran", p).isEqualTo(each);
        }
    }

    @Test
    void aTaskHandedOverAfterTheWorkerParkedStillRuns() throws Exception {
        worker = start("rdma-worker-test-park", 4);
        for (int round = 0; round < 20; round++) {
            final CountDownLatch ran = new CountDownLatch(1);
            assertThat(worker.execute(ran::countDown)).isTrue();
            assertThat(ran.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("task of round %d", round).isTrue();
            // let it go idle and park before the next one: a hand-over must wake it
            Thread.sleep(2);
        }
    }

    @Test
    void aTaskThatThrowsDoesNotStopTheWorker() throws Exception {
        worker = start("rdma-worker-test-throw", 4);
        worker.execute(() -> {
            throw new IllegalStateException("a failing task (expected in this test's log)");
        });
        final CountDownLatch ran = new CountDownLatch(1);
        worker.execute(ran::countDown);
        assertThat(ran.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("the task after the failing one").isTrue();
    }

    @Test
    void aClosedWorkerRefusesWorkAndItsThreadEnds() {
        worker = start("rdma-worker-test-close", 4);
        final AtomicReference<Thread> thread = new AtomicReference<>();
        final CountDownLatch ran = new CountDownLatch(1);
        worker.execute(() -> {
            thread.set(Thread.currentThread());
            ran.countDown();
        });
        await().atMost(BOUND).until(() -> ran.getCount() == 0);
        worker.close();
        assertThat(worker.isClosed()).isTrue();
        assertThat(worker.execute(() -> { })).isFalse();
        assertThat(worker.tryExecute(() -> { })).isFalse();
        await().atMost(BOUND).until(() -> !thread.get().isAlive());
    }

    @Test
    void applicationRequestsAreRefusedBeforeTheDataPathsRoomIsTaken() throws Exception {
        final int streams = 4;
        worker = start("rdma-worker-test-full", streams);
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        worker.execute(() -> {
            blocked.countDown();
            try {
                release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(blocked.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        final AtomicInteger ran = new AtomicInteger();
        int accepted = 0;
        while (worker.tryExecute(ran::incrementAndGet)) {
            accepted++;
            assertThat(accepted).as("requests accepted by a worker that runs nothing").isLessThan(10_000);
        }
        // the data path still has room: one drain per stream direction and an OPEN check per stream, and more
        int internal = 0;
        for (int i = 0; i < 3 * streams; i++) {
            assertThat(worker.execute(ran::incrementAndGet)).isTrue();
            internal++;
        }
        release.countDown();
        final int expected = accepted + internal;
        await().atMost(BOUND).until(() -> ran.get() == expected);
        assertThat(accepted).as("application requests accepted").isPositive();
    }

    @Test
    void blockingCallsFailOnTheWorkerAsOnReactorsParallelThreads() throws Exception {
        worker = start("rdma-worker-test-nonblocking", 4);
        final AtomicReference<Boolean> nonBlocking = new AtomicReference<>();
        final AtomicReference<Throwable> blockError = new AtomicReference<>();
        final CountDownLatch ran = new CountDownLatch(1);
        worker.execute(() -> {
            nonBlocking.set(Schedulers.isInNonBlockingThread());
            try {
                Mono.just(1).hide().block(); // hide(): a bare just() returns its value without the check
            } catch (final Throwable error) {
                blockError.set(error);
            }
            ran.countDown();
        });
        assertThat(ran.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(nonBlocking.get()).isTrue();
        assertThat(blockError.get()).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("rdma-worker-test-nonblocking");
    }

    @Test
    void handingOverAPreallocatedTaskAllocatesNothing() throws Exception {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
            "this JVM cannot count a thread's allocations");
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation counting unsupported");
        threads.setThreadAllocatedMemoryEnabled(true);
        worker = start("rdma-worker-test-alloc", 4);
        final AtomicInteger ran = new AtomicInteger();
        final Runnable task = ran::incrementAndGet;
        final int calls = 100_000;
        handOver(task, calls, ran); // warm up: classes loaded, code compiled
        final long before = threads.getCurrentThreadAllocatedBytes();
        handOver(task, calls, ran);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // one allocation per hand-over would be at least 16 bytes each: 1.6 MB
        assertThat(allocated).as("heap bytes the handing thread allocated for %d hand-overs", calls)
            .isLessThan(calls / 10);
    }

    private void handOver(final Runnable task, final int calls, final AtomicInteger ran) {
        final int target = ran.get() + calls;
        int handed = 0;
        while (handed < calls) {
            if (worker.execute(task)) {
                handed++;
            }
            while (handed - (ran.get() - (target - calls)) > 32) {
                Thread.onSpinWait(); // stay well inside the queue, so nothing spills into the overflow
            }
        }
        while (ran.get() < target) {
            Thread.onSpinWait();
        }
    }
}
