package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

import io.rdmareactive.ring.OffHeapMemory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.Agent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The runner's threading modes, command queue, error handling and closing. Every thread idles with backoff (the
 * machine has two cores); every wait is bounded, and nothing passes or fails on how long something took.
 */
class DriverRunnerTest {

    /** Generous: only a broken runner takes this long, and then the test fails with a message. */
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String IDLE = "backoff:maxSpins=1,maxYields=1,minPark=50us,maxPark=1ms";
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path directory;

    private String name;
    private DriverCounters counters;
    private final List<DriverRunner> runners = new ArrayList<>();

    @BeforeEach
    void createCounters() {
        name = "test" + NAMES.incrementAndGet();
        counters = DriverCounters.create(directory, name);
    }

    @AfterEach
    void closeEverythingAndCheckNoDriverThreadIsLeft() {
        runners.forEach(DriverRunner::close);
        counters.close();
        assertThat(liveDriverThreads(name)).as("driver threads alive after close").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ThreadingMode.class, names = {"DEDICATED", "SHARED"})
    void eachThreadedModeRunsEveryAgentAndStopsCleanly(final ThreadingMode mode) {
        final CountingAgent alpha = new CountingAgent("alpha");
        final CountingAgent beta = new CountingAgent("beta");
        final DriverRunner runner = start(builder().threadingMode(mode).agent(alpha).agent(beta));

        await().atMost(BOUND).until(() -> alpha.calls.get() >= 5 && beta.calls.get() >= 5);
        final List<Thread> threads = runner.threads();
        if (mode == ThreadingMode.SHARED) {
            assertThat(threads).extracting(Thread::getName).containsExactly("rdma-driver-" + name);
            assertThat(alpha.threads).containsExactly("rdma-driver-" + name);
            assertThat(beta.threads).containsExactly("rdma-driver-" + name);
        } else {
            assertThat(threads).extracting(Thread::getName)
                .containsExactly("rdma-driver-" + name + "-alpha", "rdma-driver-" + name + "-beta");
            assertThat(alpha.threads).containsExactly("rdma-driver-" + name + "-alpha");
            assertThat(beta.threads).containsExactly("rdma-driver-" + name + "-beta");
        }
        assertThat(threads).allMatch(Thread::isDaemon);
        assertThat(alpha.startedOn.get()).isEqualTo(alpha.threads.iterator().next());

        runner.close();
        assertThat(runner.isClosed()).isTrue();
        assertThat(threads).noneMatch(Thread::isAlive);
        assertThat(liveDriverThreads(name)).isEmpty();
        assertThat(alpha.closes.get()).as("onClose calls").isEqualTo(1);
        assertThat(beta.closes.get()).isEqualTo(1);
        assertThat(alpha.closedOn.get()).as("closed on its own thread").isEqualTo(alpha.threads.iterator().next());
        final long calls = alpha.calls.get();
        runner.close(); // idempotent
        assertThat(alpha.closes.get()).isEqualTo(1);
        assertThat(alpha.calls.get()).as("no duty cycle after close").isEqualTo(calls);
        assertThat(counters.errors().get()).isZero();
    }

    @Test
    void dedicatedThreadsGetDistinctNamesEvenForEqualRoles() {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.DEDICATED)
            .agent(new CountingAgent("poller")).agent(new CountingAgent("poller")).agent(new CountingAgent("a b/c")));
        assertThat(runner.threads()).extracting(Thread::getName).containsExactly("rdma-driver-" + name + "-poller",
            "rdma-driver-" + name + "-poller-1", "rdma-driver-" + name + "-a_b_c");
        runner.close();
        assertThat(liveDriverThreads(name)).isEmpty();
    }

    @Test
    void withoutAgentsTheRunnerStillRunsCommands() {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.DEDICATED));
        assertThat(runner.threads()).extracting(Thread::getName).containsExactly("rdma-driver-" + name + "-commands");
        final AtomicReference<String> ranOn = new AtomicReference<>();
        assertThat(runner.offer(() -> ranOn.set(Thread.currentThread().getName()))).isTrue();
        await().atMost(BOUND).until(() -> ranOn.get() != null);
        assertThat(ranOn.get()).isEqualTo("rdma-driver-" + name + "-commands");
    }

    @Test
    void invokerModeRunsTheDutyCycleOnTheCallingThreadOnly() {
        final CountingAgent agent = new CountingAgent("alpha", 1);
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.INVOKER).agent(agent));
        assertThat(runner.threads()).isEmpty();
        assertThat(liveDriverThreads(name)).isEmpty();
        assertThat(agent.startedOn.get()).isEqualTo(Thread.currentThread().getName());

        assertThat(runner.invoke()).as("work done").isEqualTo(1);
        runner.invoke();
        runner.invoke();
        assertThat(agent.calls.get()).isEqualTo(3);
        assertThat(agent.threads).containsExactly(Thread.currentThread().getName());

        runner.close();
        assertThat(agent.closes.get()).isEqualTo(1);
        assertThat(runner.invoke()).isZero();
        assertThat(agent.calls.get()).isEqualTo(3);
    }

    @Test
    void invokeIsOnlyForInvokerMode() {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.SHARED));
        assertThatIllegalStateException().isThrownBy(runner::invoke).withMessageContaining("INVOKER");
    }

    @ParameterizedTest
    @EnumSource(value = ThreadingMode.class, names = {"DEDICATED", "SHARED"})
    void commandsFromManyThreadsRunExactlyOnceOnTheDriverThread(final ThreadingMode mode) throws Exception {
        final DriverRunner runner = start(builder().threadingMode(mode).commandQueueCapacity(64)
            .commandsPerDutyCycle(8).agent(new CountingAgent("conductor")).agent(new CountingAgent("poller")));
        final String expectedThread = mode == ThreadingMode.SHARED ? "rdma-driver-" + name
            : "rdma-driver-" + name + "-conductor";

        final int producers = 4;
        final int perProducer = 500;
        final AtomicIntegerArray runs = new AtomicIntegerArray(producers * perProducer);
        final Set<String> ranOn = ConcurrentHashMap.newKeySet();
        final AtomicInteger done = new AtomicInteger();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int first = p * perProducer;
            threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                for (int i = first; i < first + perProducer; i++) {
                    final int id = i;
                    offerUntilAccepted(runner, () -> {
                        ranOn.add(Thread.currentThread().getName());
                        runs.incrementAndGet(id);
                        done.incrementAndGet();
                    });
                }
            }));
        }
        for (final Thread thread : threads) {
            assertThat(thread.join(BOUND)).as("producer finished").isTrue();
        }
        await().atMost(BOUND).until(() -> done.get() == producers * perProducer);
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of command %d", i).isEqualTo(1);
        }
        assertThat(ranOn).containsExactly(expectedThread);
    }

    @Test
    void inInvokerModeCommandsRunOnTheInvokingThread() throws Exception {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.INVOKER).commandQueueCapacity(4096));
        final AtomicIntegerArray runs = new AtomicIntegerArray(1000);
        final Set<String> ranOn = ConcurrentHashMap.newKeySet();
        final Thread producer = Thread.ofPlatform().name("producer").start(() -> {
            for (int i = 0; i < runs.length(); i++) {
                final int id = i;
                offerUntilAccepted(runner, () -> {
                    ranOn.add(Thread.currentThread().getName());
                    runs.incrementAndGet(id);
                });
            }
        });
        assertThat(producer.join(BOUND)).isTrue();
        while (runner.invoke() > 0) {
            // drain: 64 commands per duty cycle
        }
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of command %d", i).isEqualTo(1);
        }
        assertThat(ranOn).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void aFullQueueRefusesCommandsWithoutBlocking() {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.INVOKER).commandQueueCapacity(5)
            .commandsPerDutyCycle(3));
        assertThat(runner.commandQueueCapacity()).as("rounded up to a power of two").isEqualTo(8);
        final AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 8; i++) {
            assertThat(runner.offer(ran::incrementAndGet)).as("offer %d", i).isTrue();
        }
        assertThat(runner.offer(ran::incrementAndGet)).as("the ninth").isFalse();
        assertThat(runner.invoke()).as("one duty cycle runs at most 3").isEqualTo(3);
        assertThat(ran.get()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(runner.offer(ran::incrementAndGet)).isTrue();
        }
        assertThat(runner.offer(ran::incrementAndGet)).isFalse();
        runner.close();
        assertThat(runner.offer(ran::incrementAndGet)).as("after close").isFalse();
        assertThat(ran.get()).as("queued commands are discarded at close").isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(value = ThreadingMode.class, names = {"DEDICATED", "SHARED"})
    void anAgentThatThrowsIsCountedAndKeepsRunning(final ThreadingMode mode) {
        final CountingAgent thrower = new CountingAgent("thrower") {
            @Override
            public int doWork() {
                super.doWork();
                throw new IllegalStateException("test: every duty cycle fails");
            }
        };
        final CountingAgent bystander = new CountingAgent("bystander");
        final DriverRunner runner = start(builder().threadingMode(mode).agent(thrower).agent(bystander));

        await().atMost(BOUND).until(() -> thrower.calls.get() >= 10 && bystander.calls.get() >= 10);
        assertThat(counters.errors().get()).isGreaterThanOrEqualTo(9);
        assertThat(runner.threads()).allMatch(Thread::isAlive);
        runner.close();
        assertThat(counters.errors().get()).as("one error per duty cycle of the thrower")
            .isEqualTo(thrower.calls.get());
        assertThat(thrower.closes.get()).isEqualTo(1);
    }

    @Test
    void aCommandThatThrowsIsCountedAndTheOthersStillRun() {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.SHARED));
        final AtomicInteger ran = new AtomicInteger();
        assertThat(runner.offer(ran::incrementAndGet)).isTrue();
        assertThat(runner.offer(() -> {
            throw new IllegalArgumentException("test: a failing command");
        })).isTrue();
        assertThat(runner.offer(ran::incrementAndGet)).isTrue();
        await().atMost(BOUND).until(() -> ran.get() == 2);
        assertThat(counters.errors().get()).isEqualTo(1);
    }

    @Test
    void anErrorEndsItsThreadAndCloseStillClosesTheAgent() {
        final CountingAgent fatal = new CountingAgent("fatal") {
            @Override
            public int doWork() {
                super.doWork();
                throw new FatalTestError();
            }
        };
        final CountingAgent survivor = new CountingAgent("survivor");
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.DEDICATED).agent(fatal)
            .agent(survivor));
        final Thread fatalThread = runner.threads().getFirst();
        await().atMost(BOUND).until(() -> !fatalThread.isAlive());
        assertThat(fatal.calls.get()).isEqualTo(1);
        assertThat(counters.errors().get()).isEqualTo(1);
        assertThat(fatal.closes.get()).as("Agrona's runner skips onClose after an Error").isZero();
        final long survivorCalls = survivor.calls.get();
        await().atMost(BOUND).until(() -> survivor.calls.get() > survivorCalls);

        runner.close();
        assertThat(fatal.closes.get()).isEqualTo(1);
        assertThat(fatal.closedOn.get()).isEqualTo(Thread.currentThread().getName());
        assertThat(survivor.closes.get()).isEqualTo(1);
    }

    @Test
    void closingFromTheDriverThreadIsRefused() {
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.SHARED));
        final AtomicReference<Throwable> refused = new AtomicReference<>();
        assertThat(runner.offer(() -> {
            try {
                runner.close();
            } catch (final IllegalStateException ex) {
                refused.set(ex);
            }
        })).isTrue();
        await().atMost(BOUND).until(() -> refused.get() != null);
        assertThat(refused.get()).hasMessageContaining("cannot be closed from its own thread");
        assertThat(runner.isClosed()).isFalse();
        runner.close();
        assertThat(runner.isClosed()).isTrue();
    }

    @Test
    void aThreadThatDoesNotStopIsLeftBehindAfterABoundedWait() {
        final AtomicLong release = new AtomicLong();
        final CountingAgent stuck = new CountingAgent("stuck") {
            @Override
            public int doWork() {
                super.doWork();
                while (release.get() == 0) {
                    Thread.interrupted(); // ignores interrupts, as a broken agent would
                    LockSupport.parkNanos(1_000_000);
                }
                return 0;
            }
        };
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.SHARED).agent(stuck)
            .closeTimeout(Duration.ofMillis(200)));
        await().atMost(BOUND).until(() -> stuck.calls.get() == 1);
        final Thread thread = runner.threads().getFirst();

        runner.close(); // returns after about 200 ms although the thread runs on
        assertThat(runner.isClosed()).isTrue();
        assertThat(thread.isAlive()).as("the stuck thread is left behind").isTrue();
        assertThat(stuck.closes.get()).isZero();

        release.set(1);
        await().atMost(BOUND).until(() -> !thread.isAlive());
        assertThat(stuck.closes.get()).as("closed by its own thread once it returned").isEqualTo(1);
    }

    @Test
    void theCountersMayBeClosedBeforeTheRunner() {
        final CountingAgent thrower = new CountingAgent("thrower") {
            @Override
            public int doWork() {
                super.doWork();
                throw new IllegalStateException("test: counted after the counters closed");
            }
        };
        final DriverRunner runner = start(builder().threadingMode(ThreadingMode.SHARED).agent(thrower));
        // this test reads the counter after the runner is gone, so it keeps the memory mapped as the runner does:
        // reading or writing a counter after its memory is unmapped crashes the JVM
        final OffHeapMemory.Lease lease = counters.retain();
        counters.close(); // the runner's lease keeps the memory mapped while its thread counts errors
        final long calls = thrower.calls.get();
        await().atMost(BOUND).until(() -> thrower.calls.get() > calls + 2);
        runner.close();
        assertThat(lease.memory().isFreed()).isFalse();
        assertThat(counters.errors().get()).isEqualTo(thrower.calls.get());
        lease.close();
        assertThat(lease.memory().isFreed()).as("unmapped once the runner and this test let go").isTrue();
    }

    @Test
    void theBuilderChecksItsSettings() {
        assertThatIllegalArgumentException().isThrownBy(() -> DriverRunner.builder("no spaces"));
        assertThatIllegalStateException().isThrownBy(() -> DriverRunner.builder(name).start())
            .withMessageContaining("needs counters");
        assertThatIllegalArgumentException().isThrownBy(() -> builder().commandQueueCapacity(0).start());
        assertThatIllegalArgumentException().isThrownBy(() -> builder().commandsPerDutyCycle(0).start());
        assertThatIllegalArgumentException().isThrownBy(() -> builder().closeTimeout(Duration.ZERO));
        assertThatIllegalArgumentException().isThrownBy(() -> builder().idleStrategy("spin"))
            .withMessageContaining(IdleStrategies.VALID_FORMS);
        assertThat(liveDriverThreads(name)).isEmpty();
        final DriverCounters closed = DriverCounters.create(directory, name + "-closed", 8);
        closed.close();
        assertThatIllegalStateException().isThrownBy(() -> builder().counters(closed).start());
    }

    private DriverRunner.Builder builder() {
        return DriverRunner.builder(name).idleStrategy(IDLE).counters(counters);
    }

    private DriverRunner start(final DriverRunner.Builder builder) {
        final DriverRunner runner = builder.start();
        runners.add(runner);
        return runner;
    }

    private static void offerUntilAccepted(final DriverRunner runner, final Runnable command) {
        final long deadline = System.nanoTime() + BOUND.toNanos();
        while (!runner.offer(command)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the command queue stayed full for " + BOUND);
            }
            LockSupport.parkNanos(50_000); // back off: the driver drains the queue
        }
    }

    private static List<String> liveDriverThreads(final String driver) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(Thread::isAlive)
            .map(Thread::getName)
            .filter(n -> n.equals("rdma-driver-" + driver) || n.startsWith("rdma-driver-" + driver + "-"))
            .toList();
    }

    private static final class FatalTestError extends Error {
        FatalTestError() {
            super("test: an Error ends the agent's thread");
        }
    }

    /** Counts its duty cycles and records the threads it ran on. */
    private static class CountingAgent implements Agent {
        final String role;
        final int workPerCycle;
        final AtomicLong calls = new AtomicLong();
        final AtomicInteger closes = new AtomicInteger();
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final AtomicReference<String> startedOn = new AtomicReference<>();
        final AtomicReference<String> closedOn = new AtomicReference<>();

        CountingAgent(final String role) {
            this(role, 0);
        }

        CountingAgent(final String role, final int workPerCycle) {
            this.role = role;
            this.workPerCycle = workPerCycle;
        }

        @Override
        public void onStart() {
            startedOn.set(Thread.currentThread().getName());
        }

        @Override
        public int doWork() {
            threads.add(Thread.currentThread().getName());
            calls.incrementAndGet();
            return workPerCycle;
        }

        @Override
        public void onClose() {
            closedOn.set(Thread.currentThread().getName());
            closes.incrementAndGet();
        }

        @Override
        public String roleName() {
            return role;
        }
    }
}
