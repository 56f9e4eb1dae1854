package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.rdmareactive.internal.protocol.ConnectionEstablishment;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.internal.protocol.ProtocolOptions;
import io.rdmareactive.internal.protocol.StreamActivity;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The event loop's one way in ({@link EventLoop#execute}, {@link EventLoop#tryExecute}), its waking from a park, its
 * error handling, invoker mode and closing, on a group over a real shared-memory device with no connection.
 *
 * <p>Every wait is bounded and generous; nothing asserts how long anything took.
 */
class EventLoopTest {

    /** How long a test waits for something that should happen promptly (as ShmTestSupport.BOUND). */
    private static final Duration BOUND = Duration.ofSeconds(Long.getLong("rr.test.boundSeconds", 30));
    /** How long a loop must be seen asleep before a test counts on it sleeping. */
    private static final Duration SETTLED = Duration.ofMillis(50);

    @ShmTestDirectory
    private Path directory;
    private RdmaDevice device;
    private DriverCounters counters;
    private EventLoopGroup group;
    private String name;

    @BeforeEach
    void openDevice() {
        device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
        name = "loop-test-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        counters = DriverCounters.create(directory, name);
    }

    @AfterEach
    void close() {
        try {
            if (group != null) {
                group.close();
            }
        } finally {
            try {
                counters.close();
            } finally {
                device.close();
            }
        }
    }

    private EventLoopGroup start(final int loops, final Supplier<? extends IdleStrategy> idle, final boolean invoker) {
        group = EventLoopGroup.start(name, device, loops, idle, counters.errors(), Thread::new, invoker);
        return group;
    }

    private EventLoopGroup start(final int loops) {
        return start(loops, IdleStrategies.supplier("backoff"), false);
    }

    private static void await(final CountDownLatch latch, final String what) throws InterruptedException {
        assertThat(latch.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).as(what).isTrue();
    }

    // ------------------------------------------------------------------------------------------------ isolation

    @Test
    void aConnectionWhoseDutyCycleThrowsEndsWithTheCauseAndTheLoopServesTheOthers() throws Exception {
        final EventLoop loop = start(1).next();
        final ProtocolOptions options = ProtocolOptions.DEFAULTS;
        final RdmaDevice clientDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory)
            .build());
        try (Listener listener = device.listen("isolation")) {
            final CompletableFuture<ProtocolConnection> accepted = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(device, listener.accept(BOUND), options));
            final ProtocolConnection failing = ConnectionEstablishment.connect(clientDevice, "isolation", options, BOUND);
            final ProtocolConnection other = accepted.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            // the failing one's layer above throws an Error in the middle of its duty cycle, as a fault would
            failing.activity(new StreamActivity() {
                @Override
                public void onFramesArrived(final int stream) {
                }

                @Override
                public void onProducerReady(final int stream) {
                }

                @Override
                public void onTerminated() {
                }

                @Override
                public void onPolled() {
                    if (failing.error() == null) {
                        throw new InternalError("simulated fault in a duty cycle");
                    }
                }
            });
            final long errorsBefore = counters.errors().get();
            loop.execute(() -> loop.add(other));
            loop.execute(() -> loop.add(failing));

            Awaitility.await("the failing connection ended").atMost(BOUND).until(() -> failing.error() != null);
            assertThat(failing.error()).isEqualTo("the connection's duty cycle failed: "
                + "java.lang.InternalError: simulated fault in a duty cycle");
            assertThat(counters.errors().get() - errorsBefore).as("errors counted").isPositive();
            // the loop goes on: it runs tasks, and the other connection learns that its peer went away
            final CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            await(ran, "a task after the failure ran");
            Awaitility.await("the other side saw the end").atMost(BOUND).until(other::isTerminated);
        } finally {
            group.close();
            group = null;
            clientDevice.close();
        }
    }

    // ------------------------------------------------------------------------------------------------ hand-over

    /**
     * A graceful close that cannot flush ends at its deadline with an error that counts what did not reach the peer:
     * the error a {@code Connection}'s {@code onDispose()} then carries. Here the connection is not direct and the
     * peer never runs, so it posts no receives beyond its first 256, and each message goes out in a write of its own.
     */
    @Test
    void aCloseThatCannotFlushEndsAtItsDeadlineCountingWhatDidNotReachThePeer() throws Exception {
        final EventLoopGroup loops = start(1, IdleStrategies.supplier("backoff"), true);
        final EventLoop loop = loops.next();
        final ProtocolOptions options = new ProtocolOptions(4, 65536, 1 << 20, Duration.ofSeconds(1),
            Duration.ofSeconds(30));
        final RdmaDevice clientDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory)
            .property(io.rdmareactive.provider.shm.ShmProvider.DIRECT_PEER_ACCESS_PROPERTY, "false").build());
        try (Listener listener = device.listen("unflushed")) {
            final CompletableFuture<ProtocolConnection> accepted = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(device, listener.accept(BOUND), options));
            final ProtocolConnection client = ConnectionEstablishment.connect(clientDevice, "unflushed", options,
                BOUND);
            final ProtocolConnection server = accepted.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            try {
                assertThat(client.sendsDirect()).isFalse();
                loop.execute(() -> loop.add(client));
                loops.invoke();
                for (int i = 0; i < 300; i++) {
                    final var out = client.stream(1);
                    final int index = out.claim(20);
                    assertThat(index).as("room for message %d", i).isNotNegative();
                    out.buffer().putInt(index, i);
                    out.commit(io.rdmareactive.internal.protocol.ProtocolStream.WHOLE);
                    loops.invoke(); // a duty cycle: the message goes out alone
                }
                final CountDownLatch closed = new CountDownLatch(1);
                loop.execute(() -> loop.close(client, TimeUnit.MILLISECONDS.toNanos(100), () -> true,
                    closed::countDown));
                final long deadline = System.nanoTime() + BOUND.toNanos();
                while (closed.getCount() > 0 && System.nanoTime() < deadline) {
                    loops.invoke();
                    Thread.sleep(1);
                }
                assertThat(closed.getCount()).as("the close ran").isZero();
                final java.util.regex.Matcher counted = java.util.regex.Pattern.compile("^closed with (\\d+) "
                    + "message\\(s\\) \\(\\d+ bytes, on 1 stream\\(s\\)\\) committed to send that did not reach the "
                    + "peer's memory within 1\\d\\d ms").matcher(String.valueOf(client.error()));
                assertThat(counted.find()).as(client.error()).isTrue();
                assertThat(Integer.parseInt(counted.group(1))).as("beyond the peer's 256 receives")
                    .isBetween(300 - 256, 300);
            } finally {
                server.close();
            }
        } finally {
            clientDevice.close();
        }
    }

    /**
     * Two shared-memory devices, as two processes would have, each with a loop that parks for a minute whenever it
     * has nothing to do, longer than this test waits. Once both loops sleep, a message committed on one side reaches
     * the other side only because the commit found that loop's sleep word set in its doorbell page and woke it (a
     * futex on the page, which the other device maps as a peer in another process would). Without it the message
     * waited for the sleep to end.
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledOnOs(org.junit.jupiter.api.condition.OS.LINUX)
    void aLoopParkedForAMinuteIsWokenByAPeerOfAnotherDeviceThatWritesToIt() throws Exception {
        final Supplier<IdleStrategy> parkLong = () -> new org.agrona.concurrent.SleepingIdleStrategy(
            TimeUnit.SECONDS.toNanos(60));
        final EventLoopGroup serverLoops = start(1, parkLong, false);
        final RdmaDevice clientDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory)
            .build());
        final EventLoopGroup clientLoops = EventLoopGroup.start(name + "-client", clientDevice, 1, parkLong,
            counters.errors(), Thread::new, false);
        final ProtocolOptions options = ProtocolOptions.DEFAULTS;
        try (Listener listener = device.listen("parked")) {
            final CompletableFuture<ProtocolConnection> accepted = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(device, listener.accept(BOUND), options));
            final ProtocolConnection client = ConnectionEstablishment.connect(clientDevice, "parked", options, BOUND);
            final ProtocolConnection server = accepted.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(client.sendsDirect()).as("direct peer access").isTrue();
            final CountDownLatch arrived = new CountDownLatch(1);
            server.activity(new StreamActivity() {
                @Override
                public void onFramesArrived(final int stream) {
                    arrived.countDown();
                }

                @Override
                public void onProducerReady(final int stream) {
                }

                @Override
                public void onTerminated() {
                }
            });
            final EventLoop serverLoop = serverLoops.next();
            final EventLoop clientLoop = clientLoops.next();
            serverLoop.execute(() -> serverLoop.add(server));
            clientLoop.execute(() -> clientLoop.add(client));
            // both connections park once each side mapped the other's doorbell page; each task wakes its loop for a
            // look, as the loops would on their own within their park
            Awaitility.await("both connections parked").atMost(BOUND).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    serverLoop.execute(() -> { });
                    clientLoop.execute(() -> { });
                    return serverLoop.parkedCount() == 1 && clientLoop.parkedCount() == 1;
                });
            // nothing more to do: both threads go to sleep for a minute, each on its doorbell page's word (where only
            // a futex wake brings it back before the minute is up)
            Awaitility.await("both loop threads sleep on their doorbell page").atMost(BOUND)
                .pollInterval(Duration.ofMillis(5)).during(SETTLED)
                .until(() -> serverLoop.isSleepingOnPage() && clientLoop.isSleepingOnPage());

            final var out = client.stream(1);
            final int index = out.claim(8);
            out.buffer().putLong(index, 42);
            out.commit(io.rdmareactive.internal.protocol.ProtocolStream.WHOLE); // straight into the server's ring
            assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the server's sleeping loop saw the frame").isTrue();
        } finally {
            clientLoops.close();
            clientDevice.close();
        }
    }

    /**
     * A loop that sleeps for a minute whenever it has nothing to do, on its doorbell page's word: a task handed over
     * from another thread runs at once, the hand-over having woken it (a futex wake, as {@code LockSupport.unpark}
     * would wake a parked thread).
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledOnOs(org.junit.jupiter.api.condition.OS.LINUX)
    void aLoopSleepingForAMinuteRunsATaskHandedOverAtOnce() throws Exception {
        final EventLoopGroup loops = start(1, () -> new org.agrona.concurrent.SleepingIdleStrategy(
            TimeUnit.SECONDS.toNanos(60)), false);
        final EventLoop loop = loops.next();
        for (int i = 0; i < 5; i++) {
            // the loop has gone to sleep (asleep(): what VerbsSleepingLoopTest waits for on a runtime)
            Awaitility.await("the loop has gone to sleep").atMost(BOUND).pollInterval(Duration.ofMillis(5))
                .during(SETTLED).until(loops::asleep);
            final CountDownLatch ran = new CountDownLatch(1);
            assertThat(loop.execute(ran::countDown)).isTrue();
            assertThat(ran.await(20, TimeUnit.SECONDS)).as("task %d ran within 20 s of a 60 s sleep", i).isTrue();
        }
    }

    @Test
    void tasksHandedOverFromManyThreadsEachRunOnceOnTheLoopInTheOrderEachThreadHandedThemOver() throws Exception {
        final EventLoop loop = start(1).next();
        final int producers = 4;
        final int perProducer = 20_000; // together more than the queue holds: some go through the overflow
        final List<List<Integer>> ran = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            ran.add(new ArrayList<>()); // touched only on the loop thread
        }
        final ConcurrentLinkedQueue<String> offLoop = new ConcurrentLinkedQueue<>();
        final CountDownLatch done = new CountDownLatch(producers * perProducer);
        final CyclicBarrier together = new CyclicBarrier(producers);
        final AtomicInteger refused = new AtomicInteger();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int producer = p;
            final Thread thread = Thread.ofPlatform().name("producer-" + p).start(() -> {
                try {
                    together.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } catch (final Exception ex) {
                    throw new IllegalStateException(ex);
                }
                for (int i = 0; i < perProducer; i++) {
                    final int sequence = i;
                    final boolean accepted = loop.execute(() -> {
                        if (!loop.inLoop() || !Thread.currentThread().getName().equals(loop.name())) {
                            offLoop.add(Thread.currentThread().getName() + " (inLoop " + loop.inLoop() + ")");
                        }
                        ran.get(producer).add(sequence);
                        done.countDown();
                    });
                    if (!accepted) {
                        refused.incrementAndGet();
                    }
                }
            });
            threads.add(thread);
        }
        for (final Thread thread : threads) {
            thread.join(BOUND.toMillis());
        }
        assertThat(refused).as("hand-overs refused by a running loop").hasValue(0);
        await(done, "every task ran");

        // read what the loop wrote, on the loop: its own writes are visible to itself
        final AtomicReference<List<List<Integer>>> seen = new AtomicReference<>();
        final CountDownLatch copied = new CountDownLatch(1);
        loop.execute(() -> {
            final List<List<Integer>> copy = new ArrayList<>();
            ran.forEach(list -> copy.add(List.copyOf(list)));
            seen.set(copy);
            copied.countDown();
        });
        await(copied, "the loop copied what ran");
        assertThat(offLoop).as("tasks that ran off the loop thread").isEmpty();
        final List<Integer> expected = Stream.iterate(0, i -> i + 1).limit(perProducer).toList();
        for (int p = 0; p < producers; p++) {
            assertThat(seen.get().get(p)).as("the tasks of producer %d, as they ran: each once, in its order", p)
                .isEqualTo(expected);
        }
    }

    @Test
    void tryExecuteRefusesOnceTheQueueIsHalfFullWhileExecuteStillAccepts() throws Exception {
        final EventLoop loop = start(1).next();
        final CountDownLatch blocking = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        loop.execute(() -> {
            blocking.countDown();
            try {
                release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        await(blocking, "the loop is held by a task");
        try {
            final AtomicInteger ranTried = new AtomicInteger();
            int accepted = 0;
            while (accepted <= EventLoopGroup.TASK_CAPACITY && loop.tryExecute(ranTried::incrementAndGet)) {
                accepted++;
            }
            assertThat(accepted).as("application requests the held loop's queue accepted (of %d)",
                EventLoopGroup.TASK_CAPACITY).isLessThanOrEqualTo(EventLoopGroup.TASK_CAPACITY / 2)
                .isGreaterThan(EventLoopGroup.TASK_CAPACITY / 4);
            assertThat(loop.tryExecute(ranTried::incrementAndGet)).as("tryExecute once refused").isFalse();

            // internal work is never refused, not even beyond the queue's capacity
            final AtomicInteger ranExecuted = new AtomicInteger();
            final int executed = EventLoopGroup.TASK_CAPACITY;
            for (int i = 0; i < executed; i++) {
                assertThat(loop.execute(ranExecuted::incrementAndGet)).as("execute #%d", i).isTrue();
            }
            assertThat(loop.tryExecute(ranTried::incrementAndGet)).as("tryExecute while internal work overflows")
                .isFalse();
            release.countDown();

            final int acceptedTries = accepted;
            Awaitility.await("every accepted task runs").atMost(BOUND).untilAsserted(() -> {
                assertThat(ranTried).as("accepted application requests that ran").hasValue(acceptedTries);
                assertThat(ranExecuted).as("internal tasks that ran").hasValue(executed);
            });
            final CountDownLatch again = new CountDownLatch(1);
            assertThat(loop.tryExecute(again::countDown)).as("tryExecute once the queue drained").isTrue();
            await(again, "the request accepted after draining ran");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aTaskThatThrowsIsCountedAsAnErrorAndTheNextTaskStillRuns() throws Exception {
        final EventLoop loop = start(1).next();
        final long errorsBefore = counters.errors().get();
        final CountDownLatch next = new CountDownLatch(1);
        assertThat(loop.execute(() -> {
            throw new IllegalStateException("a task that fails on purpose (EventLoopTest)");
        })).isTrue();
        assertThat(loop.execute(next::countDown)).isTrue();
        await(next, "the task after the failing one ran");
        assertThat(counters.errors().get() - errorsBefore).as("errors counted").isEqualTo(1);

        final CountDownLatch later = new CountDownLatch(1);
        loop.execute(later::countDown);
        await(later, "the loop goes on");
        assertThat(loop.isClosed()).isFalse();
    }

    @Test
    void aScheduledTaskRunsOnTheLoopAfterItsDeadlineAndACancelledOneNever() throws Exception {
        final EventLoop loop = start(1).next();
        final CountDownLatch ran = new CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicReference<String> thread = new java.util.concurrent.atomic.AtomicReference<>();
        final java.util.concurrent.atomic.AtomicLong ranAt = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicBoolean cancelledRan = new java.util.concurrent.atomic.AtomicBoolean();
        final long[] deadline = new long[1];
        loop.execute(() -> {
            deadline[0] = System.nanoTime() + Duration.ofMillis(20).toNanos();
            final long cancelled = loop.schedule(deadline[0], () -> cancelledRan.set(true));
            loop.schedule(deadline[0], () -> {
                thread.set(Thread.currentThread().getName());
                ranAt.set(System.nanoTime());
                ran.countDown();
            });
            loop.cancel(cancelled);
        });
        await(ran, "the scheduled task ran");
        assertThat(thread.get()).as("the thread it ran on").isEqualTo(loop.name());
        assertThat(ranAt.get()).as("not before its deadline").isGreaterThanOrEqualTo(deadline[0]);
        final CountDownLatch after = new CountDownLatch(1);
        loop.execute(() -> loop.schedule(System.nanoTime() + Duration.ofMillis(30).toNanos(), after::countDown));
        await(after, "a later one ran too");
        assertThat(cancelledRan).as("the cancelled task ran").isFalse();
    }

    // ------------------------------------------------------------------------------------------------ waking

    /**
     * Waits until the loop's thread is parked (in its idle strategy, as nothing else parks it) or sleeps on its
     * doorbell page's word (in a system call: the thread looks runnable), and stays so for {@link #SETTLED}: the page's
     * flag is set from just before the loop's last look for work, so a single glance could catch a loop that then
     * found work and never slept.
     */
    private static void awaitParked(final Thread thread, final EventLoop loop) {
        Awaitility.await("the loop thread parks").atMost(BOUND).pollInterval(Duration.ofMillis(5)).during(SETTLED)
            .until(() -> thread.getState() == Thread.State.TIMED_WAITING || loop.isSleepingOnPage());
    }

    @Test
    void aLoopParkedByBackoffWithALongMaxParkRunsATaskHandedOverFromAnotherThread() throws Exception {
        final EventLoopGroup loops = start(1, IdleStrategies.supplier("backoff:maxPark=1s"), false);
        final EventLoop loop = loops.next();
        final Thread thread = loops.threads().get(0);
        for (int round = 0; round < 3; round++) {
            awaitParked(thread, loop);
            final CountDownLatch ran = new CountDownLatch(1);
            final AtomicReference<String> where = new AtomicReference<>();
            assertThat(loop.execute(() -> {
                where.set(Thread.currentThread().getName());
                ran.countDown();
            })).isTrue();
            await(ran, "round " + round + ": the task handed to the parked loop ran");
            assertThat(where).as("where it ran").hasValue(loop.name());
        }
    }

    /**
     * A park far longer than the bound: the task runs within the bound only because handing it over wakes the loop,
     * so this fails, rather than passes slowly, if the wake-up is lost.
     */
    @Test
    void aLoopParkedForAnHourIsWokenByATaskHandedOverFromAnotherThread() throws Exception {
        final long hour = TimeUnit.HOURS.toNanos(1);
        final EventLoopGroup loops = start(1, () -> new BackoffIdleStrategy(1, 1, hour, hour), false);
        final EventLoop loop = loops.next();
        final Thread thread = loops.threads().get(0);
        try {
            for (int round = 0; round < 20; round++) {
                awaitParked(thread, loop);
                final CountDownLatch ran = new CountDownLatch(1);
                assertThat(loop.execute(ran::countDown)).isTrue();
                await(ran, "round " + round + ": the task handed to the loop parked for an hour ran");
            }
        } finally {
            // close() does not wake a parked loop (its park is at most 1 s with the strategies a runtime accepts):
            // poke it until it has seen that it must stop
            final Thread poker = Thread.ofPlatform().daemon().start(() -> {
                while (thread.isAlive()) {
                    loop.notifyWork();
                    Thread.onSpinWait();
                }
            });
            loops.close();
            poker.join(BOUND.toMillis());
        }
    }

    // ------------------------------------------------------------------------------------------------ invoker

    @Test
    void inInvokerModeNoThreadStartsAndTasksRunOnlyInsideInvokeOnTheCallingThread() throws Exception {
        final List<String> threadsBefore = loopThreads(name);
        final EventLoopGroup loops = start(2, IdleStrategies.supplier("backoff"), true);
        assertThat(loops.isInvoker()).isTrue();
        assertThat(loops.threads()).as("the group's threads").isEmpty();
        assertThat(loopThreads(name)).as("live threads of the group").isEqualTo(threadsBefore).isEmpty();

        final EventLoop first = loops.next();
        final EventLoop second = loops.next();
        final AtomicBoolean invoking = new AtomicBoolean();
        final ConcurrentLinkedQueue<String> ran = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        final Thread caller = Thread.currentThread();
        // handed over from another thread
        final Thread other = Thread.ofPlatform().start(() -> {
            for (final EventLoop loop : List.of(first, second)) {
                loop.execute(() -> {
                    if (!invoking.get() || Thread.currentThread() != caller || !loop.inLoop()) {
                        wrong.add(loop.name() + " ran on " + Thread.currentThread().getName() + ", invoking "
                            + invoking.get() + ", inLoop " + loop.inLoop());
                    }
                    ran.add(loop.name());
                });
            }
        });
        other.join(BOUND.toMillis());
        assertThat(ran).as("tasks run before anyone invoked the loops").isEmpty();

        invoking.set(true);
        loops.invoke();
        invoking.set(false);
        assertThat(ran).as("tasks run by one invoke()").containsExactlyInAnyOrder(first.name(), second.name());
        assertThat(wrong).as("tasks that ran elsewhere than inside invoke() on the calling thread").isEmpty();
        assertThat(first.inLoop()).as("inLoop on the invoking thread").isTrue();

        // another thread may drive the loops later (one at a time): the tasks then run on it
        final AtomicReference<Thread> ranOn = new AtomicReference<>();
        first.execute(() -> ranOn.set(Thread.currentThread()));
        final Thread driver = Thread.ofPlatform().start(loops::invoke);
        driver.join(BOUND.toMillis());
        assertThat(ranOn).as("the thread that ran the task").hasValue(driver);
        assertThat(loopThreads(name)).as("live threads of the group").isEmpty();
    }

    @Test
    void invokeOnAGroupWithThreadsOfItsOwnIsRefusedWithAMessage() {
        final EventLoopGroup loops = start(1);
        assertThatIllegalStateException().isThrownBy(loops::invoke).withMessageContaining(name)
            .withMessageContaining("invoker");
    }

    // ------------------------------------------------------------------------------------------------ close

    @Test
    void closeRunsWhatWasStillQueuedAndLaterHandOversAreRefused() throws Exception {
        final EventLoopGroup loops = start(1);
        final EventLoop loop = loops.next();
        final AtomicBoolean closing = new AtomicBoolean();
        final CountDownLatch holding = new CountDownLatch(1);
        // holds the loop until close() was called, so that the tasks below are still queued when the loop stops
        loop.execute(() -> {
            holding.countDown();
            final long deadline = System.nanoTime() + BOUND.toNanos();
            while (!closing.get() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            try {
                Thread.sleep(100); // let close() tell the runner to stop: not needed for the assertions
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        await(holding, "the loop is held");
        final int queued = 1_000;
        final AtomicInteger ran = new AtomicInteger();
        final ConcurrentLinkedQueue<String> offLoop = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < queued; i++) {
            assertThat(loop.execute(() -> {
                if (!loop.inLoop()) {
                    offLoop.add(Thread.currentThread().getName());
                }
                ran.incrementAndGet();
            })).isTrue();
        }
        closing.set(true);
        loops.close();

        assertThat(ran).as("tasks queued before close() that ran by the time it returned").hasValue(queued);
        assertThat(offLoop).as("tasks that ran off the loop thread").isEmpty();
        assertThat(loop.isClosed()).isTrue();
        final AtomicBoolean late = new AtomicBoolean();
        assertThat(loop.execute(() -> late.set(true))).as("execute after close").isFalse();
        assertThat(loop.tryExecute(() -> late.set(true))).as("tryExecute after close").isFalse();
        Awaitility.await("the loop thread ends").atMost(BOUND).until(() -> !loops.threads().get(0).isAlive());
        assertThat(late).as("a task handed over after close ran").isFalse();
        loops.close(); // idempotent
    }

    @Test
    void closingTheGroupFromOneOfItsLoopThreadsFailsWithAMessageAndLeavesItRunning() throws Exception {
        final EventLoopGroup loops = start(2);
        final EventLoop loop = loops.next();
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final CountDownLatch tried = new CountDownLatch(1);
        loop.execute(() -> {
            try {
                loops.close();
            } catch (final Throwable ex) {
                thrown.set(ex);
            }
            tried.countDown();
        });
        await(tried, "the loop tried to close its group");
        assertThat(thrown.get()).as("closing from a loop thread").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(name).hasMessageContaining(loop.name()).hasMessageContaining("loop thread");

        for (final EventLoop each : List.of(loop, loops.next())) {
            final CountDownLatch ran = new CountDownLatch(1);
            assertThat(each.execute(ran::countDown)).as("%s still accepts work", each.name()).isTrue();
            await(ran, each.name() + " still runs tasks");
        }
        loops.close(); // from a thread of the application: fine
        for (final Thread thread : loops.threads()) {
            assertThat(thread.isAlive()).as("%s after close()", thread.getName()).isFalse();
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static List<String> loopThreads(final String groupName) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(threadName -> threadName.startsWith(EventLoopGroup.THREAD_NAME_PREFIX + groupName)).sorted()
            .toList();
    }
}
