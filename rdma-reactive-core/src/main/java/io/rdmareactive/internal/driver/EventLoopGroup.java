package io.rdmareactive.internal.driver;

import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionEventHandler;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.RdmaDevice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * A runtime's event loops over one device: each loop an Agrona {@link AgentRunner} on a thread of its own
 * ({@code rdma-loop-<name>-<i>}, from the given factory), or, in invoker mode, no thread at all: the application
 * drives every loop with {@link #invoke()}. New connections are pinned to the loops in turn ({@link #next()}).
 *
 * <p>The device's connection events are polled by the first loop and handed to the loop that serves the connection
 * (a task on that loop, as events are rare and each is a record of its own).
 *
 * <p>Errors: every exception a loop meets is counted in the {@code errors} counter and logged (the 1st, 2nd, 4th,
 * 8th ... of them); the loop goes on. {@link #close()} stops the loops, waiting for each at most the close timeout;
 * each loop's {@code onClose} (on its thread) runs its remaining tasks and closes its connections.
 */
public final class EventLoopGroup implements AutoCloseable {

    /** Every loop thread's name starts with this. */
    public static final String THREAD_NAME_PREFIX = "rdma-loop-";
    /** Tasks a loop's queue holds. */
    static final int TASK_CAPACITY = 1 << 16;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final Logger LOG = Loggers.getLogger(EventLoopGroup.class);

    private final String name;
    private final RdmaDevice device;
    private final EventLoop[] loops;
    private final List<AgentRunner> runners = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AgentInvoker[] invokers;
    private final AtomicInteger nextLoop = new AtomicInteger();
    private final Map<QueuePair, EventLoop> owners = new ConcurrentHashMap<>();
    private final CountingErrorHandler errors;
    private volatile boolean closed;

    private EventLoopGroup(final String name, final RdmaDevice device, final int count,
                           final Supplier<? extends IdleStrategy> idle, final AtomicCounter errorCounter,
                           final ThreadFactory threads, final boolean invoker) {
        this.name = name;
        this.device = device;
        this.errors = new CountingErrorHandler(name, errorCounter);
        this.loops = new EventLoop[count];
        final Router router = new Router();
        for (int i = 0; i < count; i++) {
            loops[i] = new EventLoop(THREAD_NAME_PREFIX + name + "-" + i, i, TASK_CAPACITY, errors, router, device);
        }
        if (invoker) {
            invokers = new AgentInvoker[count];
            for (int i = 0; i < count; i++) {
                invokers[i] = new AgentInvoker(errors, null, loops[i]);
            }
            return;
        }
        invokers = null;
        try {
            for (final EventLoop loop : loops) {
                final AgentRunner runner = new AgentRunner(loop.wrap(idle.get()), errors, null, loop);
                final Thread thread = threads.newThread(runner);
                thread.setName(loop.name());
                thread.setDaemon(true);
                runners.add(runner);
                this.threads.add(thread);
                thread.start();
            }
        } catch (final RuntimeException | Error ex) {
            close();
            throw ex;
        }
    }

    /**
     * Starts the loops.
     *
     * @param name         the runtime's name, which the threads carry
     * @param device       the device whose events the first loop polls
     * @param count        how many loops, at least 1
     * @param idle         makes each loop's idle strategy (strategies keep state: one each)
     * @param errorCounter where errors are counted
     * @param threads      makes the loop threads (named and made daemons here)
     * @param invoker      true for no thread: the application calls {@link #invoke()}
     */
    public static EventLoopGroup start(final String name, final RdmaDevice device, final int count,
                                       final Supplier<? extends IdleStrategy> idle, final AtomicCounter errorCounter,
                                       final ThreadFactory threads, final boolean invoker) {
        if (count < 1) {
            throw new IllegalArgumentException("a runtime needs at least one event loop, not " + count);
        }
        return new EventLoopGroup(name, device, count, idle, errorCounter, threads, invoker);
    }

    /** @return the loop the next connection is pinned to: the loops in turn */
    public EventLoop next() {
        return loops[Math.floorMod(nextLoop.getAndIncrement(), loops.length)];
    }

    /** @return how many connections the loops have parked now (a snapshot): idle ones, polled only when woken */
    public int parkedConnections() {
        int parked = 0;
        for (final EventLoop loop : loops) {
            parked += loop.parkedCount();
        }
        return parked;
    }

    /**
     * A snapshot for tests and diagnostics: whether every loop's thread idles where only a wake-up brings it back,
     * parked by its idle strategy (the thread is waiting) or asleep on its doorbell page's word (in a system call, the
     * thread looks runnable; {@code true} there from just before the word's last look for work).
     *
     * @return true if every loop's thread is parked or asleep now; false in invoker mode (no thread of its own)
     */
    public boolean asleep() {
        if (invokers != null || threads.size() != loops.length) {
            return false;
        }
        for (int i = 0; i < loops.length; i++) {
            final Thread.State state = threads.get(i).getState();
            if (state != Thread.State.TIMED_WAITING && state != Thread.State.WAITING && !loops[i].isSleepingOnPage()) {
                return false;
            }
        }
        return true;
    }

    /** @return the VM error that broke one of the loops down, or null while all are sound */
    public Throwable failure() {
        for (final EventLoop loop : loops) {
            final Throwable failure = loop.failure();
            if (failure != null) {
                return failure;
            }
        }
        return null;
    }

    /** @return how many loops there are */
    public int size() {
        return loops.length;
    }

    /** @return the loops' threads (none in invoker mode) */
    public List<Thread> threads() {
        return List.copyOf(threads);
    }

    /** @return true in invoker mode */
    public boolean isInvoker() {
        return invokers != null;
    }

    /** Records which loop serves a queue pair, so that its device events reach that loop. */
    public void own(final QueuePair queuePair, final EventLoop loop) {
        owners.put(queuePair, loop);
    }

    /** Forgets a queue pair (its connection closed). */
    public void disown(final QueuePair queuePair) {
        owners.remove(queuePair);
    }

    /** @return true if the calling thread is one of this group's loops (where closing the group would wait for itself) */
    public boolean inAnyLoop() {
        for (final EventLoop loop : loops) {
            if (loop.inLoop()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Invoker mode: one duty cycle of every loop on the calling thread (one thread at a time).
     *
     * @return the work done (0 when idle)
     * @throws IllegalStateException if the group runs threads of its own
     */
    public int invoke() {
        if (invokers == null) {
            throw new IllegalStateException("the runtime " + name + " runs its own loop threads; only a runtime "
                + "built in invoker mode is driven by the application");
        }
        int work = 0;
        for (int i = 0; i < invokers.length; i++) {
            final AgentInvoker invoker = invokers[i];
            if (!invoker.isStarted()) {
                loops[i].bindInvoker();
                invoker.start();
            }
            loops[i].bindInvoker();
            work += invoker.invoke();
        }
        return work;
    }

    /** Stops the loops (each closes its connections on its thread) and waits for them a bounded time. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (inAnyLoop() && invokers == null) {
            throw new IllegalStateException("the runtime " + name + " cannot be closed from its own loop thread "
                + Thread.currentThread().getName() + ", which closing waits for");
        }
        closed = true;
        if (invokers != null) {
            for (int i = 0; i < invokers.length; i++) {
                loops[i].bindInvoker();
                invokers[i].close();
            }
            return;
        }
        for (final EventLoop loop : loops) {
            loop.stopping(); // a loop parked by its idle strategy would see the stop only when its park ends
        }
        for (int i = 0; i < runners.size(); i++) {
            final AgentRunner runner = runners.get(i);
            final Thread thread = threads.get(i);
            try {
                runner.close((int) CLOSE_TIMEOUT.toMillis(), stuck -> {
                    throw new IllegalStateException("still running");
                });
            } catch (final IllegalStateException ex) {
                final StringBuilder stack = new StringBuilder();
                for (final StackTraceElement frame : thread.getStackTrace()) {
                    stack.append("\n\tat ").append(frame);
                }
                LOG.error("event loop {} still runs {} ms after close(): something on it does not return (a "
                    + "subscriber that blocks the loop?). Leaving the thread behind (it is a daemon). It is at:{}",
                    thread.getName(), CLOSE_TIMEOUT.toMillis(), stack);
            }
        }
    }

    /** @return the loops, for tests of this package */
    EventLoop[] loops() {
        return loops;
    }

    @Override
    public String toString() {
        return "EventLoopGroup{" + name + ", " + loops.length + (invokers != null ? " invoked" : "") + " loops}";
    }

    /** Polls the device's events on the first loop and hands each to the loop that serves its queue pair. */
    private final class Router implements EventLoop.EventRouter, ConnectionEventHandler {
        private EventLoop polling;

        @Override
        public int poll(final EventLoop loop, final int limit) {
            polling = loop;
            return device.pollEvents(this, limit);
        }

        @Override
        public void onEvent(final ConnectionEvent event) {
            final EventLoop owner = owners.get(event.queuePair());
            if (owner == null || owner == polling) {
                polling.onEvent(event);
            } else if (!owner.execute(() -> owner.onEvent(event)) && LOG.isDebugEnabled()) {
                LOG.debug("dropped {}: its loop has stopped", event);
            }
        }
    }

    /** Counts every error into the errors counter and logs the 1st, 2nd, 4th, 8th ... of them. */
    static final class CountingErrorHandler implements ErrorHandler {
        private final String runtime;
        private final AtomicCounter errors;
        private final AtomicLong seen = new AtomicLong();

        CountingErrorHandler(final String runtime, final AtomicCounter errors) {
            this.runtime = runtime;
            this.errors = errors;
        }

        @Override
        public void onError(final Throwable error) {
            if (!errors.isClosed()) {
                errors.increment();
            }
            final long count = seen.incrementAndGet();
            if ((count & (count - 1)) == 0) {
                LOG.error("runtime {}, thread {}: error {} (logged at 1, 2, 4, 8, ...; the 'errors' counter has every "
                    + "one)", runtime, Thread.currentThread().getName(), count, error);
            }
        }
    }
}
