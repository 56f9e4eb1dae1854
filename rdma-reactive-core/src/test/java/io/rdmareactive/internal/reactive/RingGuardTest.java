package io.rdmareactive.internal.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.RepeatedTest;

/**
 * The guard that keeps a connection's rings mapped while senders on other threads are inside them: once closed, no
 * sender enters, and once quiescent, no sender is inside, so the loop may unmap.
 *
 * <p>Every wait is bounded and generous; nothing asserts how long anything took.
 */
class RingGuardTest {

    private static final Duration BOUND = Duration.ofSeconds(Long.getLong("rr.test.boundSeconds", 30));

    enum Operation { ENTER, EXIT, CLOSE }

    /**
     * A model check: random sequences of enter, exit (only by a sender inside, as the guard's users do) and close;
     * enter succeeds iff the guard is not closed, and it is quiescent iff closed with nobody inside.
     */
    @Property(tries = 1000)
    void enterSucceedsUntilClosedAndQuiescenceMeansClosedWithNobodyInside(
        @ForAll @Size(max = 60) final List<Operation> operations) {
        final RingGuard guard = new RingGuard();
        boolean closed = false;
        int inside = 0;
        assertThat(guard.isClosed()).isFalse();
        assertThat(guard.isQuiescent()).as("a new guard").isFalse();
        for (int step = 0; step < operations.size(); step++) {
            switch (operations.get(step)) {
                case ENTER -> {
                    final boolean entered = guard.enter();
                    assertThat(entered).as("step %d: enter with closed=%s, %d inside", step, closed, inside)
                        .isEqualTo(!closed);
                    if (entered) {
                        inside++;
                    }
                }
                case EXIT -> {
                    if (inside > 0) {
                        guard.exit();
                        inside--;
                    }
                }
                case CLOSE -> {
                    guard.close();
                    closed = true;
                }
            }
            assertThat(guard.isClosed()).as("step %d (%s): isClosed", step, operations.get(step)).isEqualTo(closed);
            assertThat(guard.isQuiescent()).as("step %d (%s): isQuiescent with closed=%s, %d inside", step,
                operations.get(step), closed, inside).isEqualTo(closed && inside == 0);
        }
        // whoever is still inside leaves: a closed guard then becomes quiescent, and stays closed
        while (inside > 0) {
            guard.exit();
            inside--;
        }
        assertThat(guard.isQuiescent()).as("after everybody left").isEqualTo(closed);
        guard.close();
        assertThat(guard.isQuiescent()).as("closed, nobody inside").isTrue();
        assertThat(guard.enter()).as("enter after close").isFalse();
        assertThat(guard.isQuiescent()).as("a refused enter leaves it quiescent").isTrue();
    }

    /**
     * Senders on several threads enter and exit in a loop while another thread closes the guard: once it is
     * quiescent nobody is inside, and no enter succeeds after close() returned.
     */
    @RepeatedTest(20)
    void onceQuiescentNoSenderIsInsideAndNoneEntersAfterClose() throws Exception {
        final RingGuard guard = new RingGuard();
        final int senders = 4;
        final AtomicInteger inside = new AtomicInteger();
        final AtomicBoolean closeReturned = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLongArray entered = new AtomicLongArray(senders);
        final AtomicLongArray triedAfterClose = new AtomicLongArray(senders);
        final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        final List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            final int sender = s;
            threads.add(Thread.ofPlatform().daemon().name("sender-" + s).start(() -> {
                while (!stop.get()) {
                    final boolean afterClose = closeReturned.get();
                    if (guard.enter()) {
                        inside.incrementAndGet();
                        if (afterClose) {
                            violations.add("sender " + sender + " entered after close() returned");
                        }
                        entered.incrementAndGet(sender);
                        Thread.onSpinWait(); // "writes into the ring"
                        inside.decrementAndGet();
                        guard.exit();
                    } else if (!afterClose && !guard.isClosed()) {
                        violations.add("sender " + sender + " was refused before the guard was closed");
                    }
                    if (afterClose) {
                        triedAfterClose.incrementAndGet(sender);
                    }
                }
            }));
        }
        try {
            Awaitility.await("every sender entered").atMost(BOUND).until(() -> {
                for (int s = 0; s < senders; s++) {
                    if (entered.get(s) < 100) {
                        return false;
                    }
                }
                return true;
            });
            final Thread closer = Thread.ofPlatform().name("closer").start(() -> {
                guard.close();
                closeReturned.set(true);
            });
            closer.join(BOUND.toMillis());
            assertThat(guard.isClosed()).isTrue();

            Awaitility.await("the guard becomes quiescent").atMost(BOUND).pollInterval(Duration.ofMillis(1))
                .until(guard::isQuiescent);
            assertThat(inside).as("senders inside once the guard was quiescent").hasValue(0);

            Awaitility.await("every sender tried to enter after close").atMost(BOUND).until(() -> {
                for (int s = 0; s < senders; s++) {
                    if (triedAfterClose.get(s) < 100) {
                        return false;
                    }
                }
                return true;
            });
            assertThat(inside).as("senders inside after the guard was closed and quiescent").hasValue(0);
        } finally {
            stop.set(true);
            for (final Thread thread : threads) {
                thread.join(BOUND.toMillis());
            }
        }
        assertThat(violations).isEmpty();
        assertThat(guard.isQuiescent()).as("quiescent once the senders stopped").isTrue();
        assertThat(guard.enter()).as("enter after close").isFalse();
    }
}
