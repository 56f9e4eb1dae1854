package io.rdmareactive.internal.driver;

import io.rdmareactive.internal.protocol.Doorbells;
import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.spi.DeviceCapability;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.ConnectionEvent;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.DeadlineTimerWheel;
import org.agrona.ErrorHandler;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * One event loop: an Agrona {@link Agent} that alone touches the connections pinned to it (their queue pairs,
 * completion queues, rings and streams) and runs the reactive work of those connections, so that a message arriving
 * is polled, checked and handed to its subscriber on one thread, with no hop.
 *
 * <h2>One duty cycle</h2>
 * <ol>
 *   <li>the tasks other threads handed over ({@link #execute}): a stream's drain after a {@code request(n)} from a
 *       foreign thread, a connection to add or close, a request to open; at most what was queued when the cycle
 *       began, so a task that hands over another does not starve the polling;</li>
 *   <li>every connection's protocol duty cycle ({@link ProtocolConnection#doWork(long)}): completions, frame
 *       checks, credit, posts, liveness; the stream activity it reports (frames arrived, credit) runs the streams'
 *       drains inline, on this thread;</li>
 *   <li>the connections closing gracefully: closed once flushed (or ended, or past their deadline) and once no
 *       other thread is inside their rings;</li>
 *   <li>on the group's first loop, the device's connection events, routed to the loop that owns the connection.</li>
 * </ol>
 *
 * <h2>The one way in</h2>
 * {@link #execute} puts a task into an Agrona {@link ManyToOneConcurrentArrayQueue} of fixed capacity: no task object
 * of its own, no future, no lock. The data path hands over only preallocated tasks (a stream's drain), at most once
 * each at a time (a work-in-progress counter keeps it so), so the queue, sized by the connections it serves, is not
 * reached by it; requests from application threads ({@link #tryExecute}) are refused before the queue gets that
 * full. Internal work beyond the capacity, which that sizing rules out, waits in an overflow queue rather than being
 * lost, in order behind what overflowed before it.
 *
 * <h2>Idling without added latency</h2>
 * The loop's idle strategy is wrapped: before an idle turn that may park, the loop says so ({@code sleeping}) and
 * looks once more for work; a thread that hands work over ({@link #execute}, {@link #notifyWork()}) counts it and
 * unparks the loop only if it said it sleeps. A busy loop never pays the unpark, and a parked one wakes at once.
 * Where the loop has a doorbell page and futexes work, it sleeps on the page's sleep word instead of parking
 * ({@code sleepOn}): then peers in other processes, which map the page, wake it as well as this process's threads.
 *
 * <p>A task that throws is counted and logged through the group's error handler, and the next task runs.
 */
public final class EventLoop implements Agent {

    private final String name;
    private final int index;
    private final ManyToOneConcurrentArrayQueue<Runnable> tasks;
    private final int reserved;
    private final ConcurrentLinkedQueue<Runnable> overflow = new ConcurrentLinkedQueue<>();
    private final ErrorHandler errors;
    private final EventRouter router;
    /** Work handed over by other threads, counted: the loop compares it before it parks. */
    private final AtomicLong signals = new AtomicLong();
    private volatile Thread thread;
    private volatile boolean sleeping;
    /** The VM error that broke the loop down ({@link #breakDown}); null while it is sound. */
    private volatile Throwable failure;
    /** False once {@link #wrap} saw an idle strategy that never parks the thread: nobody need wake it. */
    private volatile boolean mayPark = true;
    private volatile boolean closed;
    /** Set when the group stops the loop: it no longer idles, so that it sees the stop at once. */
    private volatile boolean stopping;
    /** Every connection this loop serves (loop only; replaced, never changed in place). */
    private Served[] served = new Served[0];
    /** The connections polled in every duty cycle: the ones not parked (loop only), {@code polledCount} of them. */
    private Served[] polled = new Served[16];
    private int polledCount;
    /** How many connections are parked, for other threads to read. */
    private volatile int parked;
    /**
     * The page of doorbells that wake parked connections, for the loop's life; null where the device has no direct peer
     * access (its connections are never parked) or the page could not be had.
     */
    private Doorbells doorbells;
    private Closing[] closing = new Closing[0];
    private long signalsSeen;
    /** The page whose word the thread sleeps on now, or null (written by the loop, read by wakers). */
    private volatile Doorbells sleepingOn;
    /** Wakers inside the doorbell page, plus {@link #PAGE_CLOSED} once it closes: unmapped only with none inside. */
    private final java.util.concurrent.atomic.AtomicInteger pageUsers = new java.util.concurrent.atomic.AtomicInteger();
    private static final int PAGE_CLOSED = 1 << 30;
    /** The sleep's {@code struct timespec} (loop thread). */
    private final java.lang.foreign.MemorySegment timespec = java.lang.foreign.Arena.ofAuto().allocate(16, 8);
    /** Deadlines of this loop's work (request timeouts), about a millisecond apart at most; loop thread only. */
    private final DeadlineTimerWheel timers = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, System.nanoTime(),
        TIMER_TICK_NANOS, 512);
    private final Long2ObjectHashMap<Runnable> timerTasks = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerHandler onTimer = this::onTimer;

    /** The resolution of {@link #schedule}: 2^20 ns, about a millisecond. */
    static final long TIMER_TICK_NANOS = 1L << 20;

    /** Hands the device's connection events to the loops (only the first loop polls the device). */
    interface EventRouter {
        /** @return events handled */
        int poll(EventLoop loop, int limit);
    }

    /**
     * How long a connection that can be parked ({@link ProtocolConnection#park()}) must have been without work before
     * it is, when none of its streams is in use: one in a conversation (a round trip every few microseconds) stays
     * polled and pays no wake-up, one idle for longer costs the loop nothing until it is woken.
     * {@code -Drdma.loop.parkAfterIdleMicros}, 20 by default.
     */
    static final long PARK_AFTER_IDLE_NANOS = Long.getLong("rdma.loop.parkAfterIdleMicros", 20) * 1000;

    /**
     * The same for a connection with a stream in use ({@link ProtocolConnection#hasStreamsInUse()}: a send running, a
     * subscriber on an inbound): a stream's pauses are mostly its producer's thread waiting for a core (a yield, a
     * time slice of another thread, a collection), and parking the connection at each of them cost 32-byte streams up
     * to 20 times their throughput, their producers and the loop waking each other through doorbells thousands of
     * times a second. {@code -Drdma.loop.parkAfterIdleInUseMicros}, 1,000 by default.
     */
    static final long PARK_AFTER_IDLE_IN_USE_NANOS = Math.max(PARK_AFTER_IDLE_NANOS,
        Long.getLong("rdma.loop.parkAfterIdleInUseMicros", 1_000) * 1000);

    /** A connection this loop serves, with what the loop keeps about it. */
    private final class Served {
        final ProtocolConnection connection;
        /** Its doorbell in {@link #doorbells}, or -1 (it is then never parked). */
        int doorbell = -1;
        /** Where it is in {@link #polled}, or -1 while parked. */
        int polledIndex = -1;
        /** When the loop last found work in it (or began polling it). */
        long busyAt;
        /** Closing: polled until closed, never parked again. */
        boolean closing;
        /** The timer that wakes it while parked (its keepalive, its peer's silence), or -1. */
        long wakeTimer = -1;
        final Runnable wake = this::onWakeTimer;

        Served(final ProtocolConnection connection) {
            this.connection = connection;
        }

        private void onWakeTimer() {
            wakeTimer = -1;
            unpark(this, System.nanoTime());
        }
    }

    EventLoop(final String name, final int index, final int capacity, final ErrorHandler errors,
              final EventRouter router, final RdmaDevice device) {
        this.name = name;
        this.index = index;
        this.tasks = new ManyToOneConcurrentArrayQueue<>(capacity);
        this.reserved = Math.max(16, capacity / 2);
        this.errors = errors;
        this.router = router;
        // peers write the page where they have direct access; elsewhere (verbs) only this process rings it: the
        // connections that park on their completions, and the loop's own producers and consumers
        this.doorbells = doorbells(device, device.capabilities().contains(DeviceCapability.DIRECT_PEER_ACCESS));
    }

    /** @return the loop's name, which its thread carries */
    public String name() {
        return name;
    }

    /** @return true on the loop's own thread (or the thread invoking it now, in invoker mode) */
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** @return true once the loop stopped: tasks handed over now will not run */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Hands internal work to the loop, from any thread, this loop's own included (the task then runs in the next
     * duty cycle, never inside the caller). Never blocks; allocates nothing but what the caller made.
     *
     * @return false once the loop is closed (the task will not run)
     */
    public boolean execute(final Runnable task) {
        if (closed) {
            return false;
        }
        if (!overflow.isEmpty() || !tasks.offer(task)) {
            overflow.add(task);
        }
        notifyWork();
        return true;
    }

    /**
     * Hands over work an application thread asked for (a new request): refused, rather than queued, when the queue is
     * so full that the data path's room would shrink.
     *
     * @return false if refused or closed (the task will not run)
     */
    public boolean tryExecute(final Runnable task) {
        if (closed || !overflow.isEmpty() || tasks.size() >= tasks.capacity() - reserved || !tasks.offer(task)) {
            return false;
        }
        notifyWork();
        return true;
    }

    /**
     * Tells the loop that memory it polls changed (a frame committed to a send ring): wakes it if it said it sleeps.
     * One atomic increment where the loop's idle strategy may park it, nothing where it never does; an unpark only for
     * a sleeping loop.
     */
    public void notifyWork() {
        if (!mayPark) {
            return; // its idle strategy never parks the thread (yielding, busy-spin): it finds the work by polling
        }
        signals.getAndIncrement(); // a full fence: the loop's sleeping flag is read after the work is visible
        if (sleeping) {
            final Thread owner = thread;
            if (owner != null) {
                LockSupport.unpark(owner);
            }
            wakeSleeper();
        }
    }

    /** The group stops this loop: it stops idling and is woken if it sleeps. */
    void stopping() {
        stopping = true;
        final Thread owner = thread;
        if (owner != null) {
            LockSupport.unpark(owner);
        }
        wakeSleeper();
    }

    /**
     * Wakes the loop's thread if it sleeps on its doorbell page's word (any thread): inside the page's guard, so that
     * the loop never unmaps the page under a waker.
     */
    private void wakeSleeper() {
        if (sleepingOn == null) {
            return;
        }
        if (pageUsers.incrementAndGet() < PAGE_CLOSED) {
            final Doorbells bells = sleepingOn;
            if (bells != null) {
                bells.wake();
            }
        }
        pageUsers.decrementAndGet();
    }

    /**
     * Runs {@code task} on this loop once {@code deadlineNanos} ({@link System#nanoTime()}) has passed, give or take
     * a millisecond: a timer wheel polled every duty cycle, so that a deadline costs no thread and no system call.
     * Loop thread only.
     *
     * @return the timer's id, for {@link #cancel(long)}
     */
    public long schedule(final long deadlineNanos, final Runnable task) {
        if (timers.timerCount() == 0) {
            timers.currentTickTime(System.nanoTime()); // the wheel is polled only while it holds timers: catch up
        }
        final long id = timers.scheduleTimer(deadlineNanos);
        timerTasks.put(id, task);
        return id;
    }

    /** Cancels a timer that has not run. Loop thread only. */
    public void cancel(final long timerId) {
        if (timerTasks.remove(timerId) != null) {
            timers.cancelTimer(timerId);
        }
    }

    private boolean onTimer(final TimeUnit unit, final long now, final long timerId) {
        final Runnable task = timerTasks.remove(timerId);
        if (task != null) {
            run(task);
        }
        return true;
    }

    /**
     * Runs a task of this loop: what it throws is counted and logged, and the loop goes on; a VM error (a fault on
     * unmapped memory, no memory left, a stack overflow) breaks the loop down ({@link #breakDown}).
     */
    private void run(final Runnable task) {
        try {
            task.run();
        } catch (final VirtualMachineError fatal) {
            breakDown(fatal);
        } catch (final Throwable error) {
            errors.onError(error);
        }
    }

    /**
     * A VM error escaped this loop's work outside any one connection's duty cycle: a task, a timer, the loop's own
     * bookkeeping. Whatever it interrupted (a drain, a close) may never finish, so no connection of the loop can be
     * trusted to: every one ends now with the cause, and the loop goes on running only so that they end (their
     * subscribers get the error, their memory is released). The loop, and with it its runtime, says it is broken
     * from now on ({@link #failure()}); new connections are refused.
     */
    private void breakDown(final VirtualMachineError fatal) {
        errors.onError(fatal);
        if (failure == null) {
            failure = fatal;
        }
        final long now = System.nanoTime();
        for (final Served entry : served) {
            unpark(entry, now);
            entry.connection.failed("event loop " + name + " broke down", fatal);
        }
    }

    /** @return the VM error that broke this loop down, or null while it is sound (any thread) */
    public Throwable failure() {
        return failure;
    }

    /**
     * Pins a connection to this loop (loop thread). One that can be parked (direct peer access) gets a doorbell in the
     * loop's page; without one (the page full, or not to be had) it is polled in every cycle.
     */
    public void add(final ProtocolConnection connection) {
        final Served entry = new Served(connection);
        served = Arrays.copyOf(served, served.length + 1);
        served[served.length - 1] = entry;
        if (connection.mayUseDoorbell() && doorbells != null) {
            entry.doorbell = doorbells.allocate(entry);
            if (entry.doorbell >= 0 && !connection.doorbell(doorbells, entry.doorbell)) {
                doorbells.release(entry.doorbell);
                entry.doorbell = -1;
            }
        } else if (connection.mayParkOnCompletions() && doorbells != null) {
            // no peer rings it (verbs): it parks on its completion queue, whose next completion rings its doorbell
            entry.doorbell = doorbells.allocate(entry);
            if (entry.doorbell >= 0) {
                connection.localDoorbell(doorbells, entry.doorbell);
            }
        }
        final int doorbell = entry.doorbell;
        connection.completionWake(doorbell >= 0 ? () -> ringDoorbell(doorbell) : completionWakeup);
        poll(entry);
        if (failure != null) {
            connection.failed("event loop " + name + " broke down earlier", failure); // ends at once, on this loop
        }
    }

    private Doorbells doorbells(final RdmaDevice device, final boolean peersWrite) {
        try {
            return new Doorbells(device, peersWrite);
        } catch (final RuntimeException ex) {
            errors.onError(new IllegalStateException("event loop " + name + " has no doorbell page: its "
                + "connections are polled in every duty cycle", ex));
            return null;
        }
    }

    private void closeDoorbells() {
        if (doorbells != null) {
            // no waker enters the page from now on; the ones inside leave within a few instructions and a system call
            pageUsers.getAndAdd(PAGE_CLOSED);
            while (pageUsers.get() != PAGE_CLOSED) {
                Thread.onSpinWait();
            }
            try {
                doorbells.close();
            } catch (final RuntimeException ex) {
                errors.onError(ex);
            }
            doorbells = null;
        }
    }

    /**
     * The thread sleeps on the doorbell page's word for at most {@code nanos} (loop thread, where the strategy would
     * park it): it says so in the word, looks once more for work a waker could have missed (handed-over work, a
     * doorbell, frames a peer published to a connection it polls), and sleeps only if there is none. A waker that comes
     * after that look finds the word set and wakes it, whichever process it is in ({@code Doorbells.wake}).
     */
    private void sleepOn(final Doorbells bells, final long seen, final long nanos) {
        sleepingOn = bells;
        bells.sayAsleep(); // a volatile store: the looks below come after a waker can see the word
        if (signals.get() == seen && tasks.isEmpty() && overflow.isEmpty() && !stopping && !bells.anyRung()
            && !anyUnreadPublished()) {
            bells.sleep(timespec, nanos);
        } else {
            bells.sayAwake();
        }
        sleepingOn = null;
    }

    /** @return true while the loop's thread sleeps on its doorbell page's word, or is about to (for tests) */
    boolean isSleepingOnPage() {
        return sleepingOn != null;
    }

    /**
     * Before the thread sleeps (loop thread): asks the completion queue of each polled connection to wake it at its next
     * completion (verbs: the device's completion channel), so that a completion ends a sleep as a doorbell does.
     *
     * @return true if a queue was asked just now: the loop must look once more before it sleeps
     */
    private boolean armWakeups() {
        boolean armed = false;
        for (int i = 0; i < polledCount; i++) {
            armed |= polled[i].connection.armWakeup();
        }
        return armed;
    }

    /**
     * Rings doorbell {@code number} of this loop's page and wakes the loop (any thread: a provider's event thread at
     * a completion), inside the page's guard, so that the loop never unmaps the page under it.
     */
    private void ringDoorbell(final int number) {
        if (pageUsers.incrementAndGet() < PAGE_CLOSED) {
            final Doorbells bells = doorbells;
            if (bells != null) {
                bells.ring(number);
            }
        }
        pageUsers.decrementAndGet();
        notifyWork();
    }

    /** What a completion queue runs to wake this loop ({@link #armWakeups()}). */
    private final Runnable completionWakeup = this::notifyWork;

    private boolean anyUnreadPublished() {
        for (int i = 0; i < polledCount; i++) {
            if (polled[i].connection.hasUnreadPublished()) {
                return true;
            }
        }
        return false;
    }

    /** @return how many connections this loop serves now (a snapshot) */
    public int connectionCount() {
        return served.length;
    }

    /** @return how many of them are parked now (a snapshot) */
    public int parkedCount() {
        return parked;
    }

    private Served find(final ProtocolConnection connection) {
        for (final Served entry : served) {
            if (entry.connection == connection) {
                return entry;
            }
        }
        return null;
    }

    /** Polls {@code entry} in every cycle from now on. */
    private void poll(final Served entry) {
        if (polledCount == polled.length) {
            polled = Arrays.copyOf(polled, polledCount * 2);
        }
        entry.polledIndex = polledCount;
        entry.busyAt = System.nanoTime();
        polled[polledCount++] = entry;
    }

    /** Stops polling {@code entry} (it parked); the one that was last takes its place. */
    private void unpoll(final Served entry) {
        final int index = entry.polledIndex;
        final Served last = polled[--polledCount];
        polled[index] = last;
        last.polledIndex = index;
        polled[polledCount] = null;
        entry.polledIndex = -1;
    }

    /** A parked connection is polled again: its doorbell rang, its timer fired, an event or a close concerns it. */
    private void unpark(final Served entry, final long now) {
        if (entry.polledIndex >= 0) {
            return;
        }
        if (entry.wakeTimer >= 0) {
            cancel(entry.wakeTimer);
            entry.wakeTimer = -1;
        }
        entry.connection.unpark(now);
        poll(entry);
        parked--;
    }

    /** @return the connections whose doorbell rang, now polled again */
    private int ringDoorbells(final long now) {
        int woken = 0;
        final int words = doorbells.wordsInUse();
        for (int w = 0; w < words; w++) {
            long bits = doorbells.take(w);
            while (bits != 0) {
                final int doorbell = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (doorbells.owner(doorbell) instanceof Served entry && entry.polledIndex < 0) {
                    unpark(entry, now);
                    woken++;
                }
            }
        }
        return woken;
    }

    /**
     * Closes a connection gracefully (loop thread): its duty cycle goes on until everything it committed has been
     * sent and completed (or it fails, or {@code flushTimeoutNanos} pass) and {@code quiescent} says no other thread
     * is inside its rings; then it is closed here, dropped from the duty cycle, and {@code after} runs.
     */
    public void close(final ProtocolConnection connection, final long flushTimeoutNanos,
                      final BooleanSupplier quiescent, final Runnable after) {
        final Served entry = find(connection);
        if (entry != null) {
            unpark(entry, System.nanoTime()); // its duty cycle flushes it
            entry.closing = true; // and it is not parked again
        }
        closing = Arrays.copyOf(closing, closing.length + 1);
        closing[closing.length - 1] = new Closing(connection, System.nanoTime() + flushTimeoutNanos,
            flushTimeoutNanos, Objects.requireNonNull(quiescent), after);
    }

    private record Closing(ProtocolConnection connection, long deadline, long timeoutNanos, BooleanSupplier quiescent,
                           Runnable after) {
    }

    /** A device event for one of this loop's connections (loop thread): polled again, it sees the event. */
    void onEvent(final ConnectionEvent event) {
        for (final Served entry : served) {
            if (entry.connection.queuePair() == event.queuePair()) {
                unpark(entry, System.nanoTime());
                entry.connection.onEvent(event);
                return;
            }
        }
    }

    /** @return true if this loop serves the connection of that queue pair (loop thread) */
    boolean serves(final ConnectionEvent event) {
        for (final Served entry : served) {
            if (entry.connection.queuePair() == event.queuePair()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onStart() {
        thread = Thread.currentThread();
    }

    /** Invoker mode: the calling thread becomes the loop's thread while it drives it. */
    void bindInvoker() {
        thread = Thread.currentThread();
    }

    @Override
    public int doWork() {
        try {
            return cycle();
        } catch (final VirtualMachineError fatal) {
            breakDown(fatal);
            return 1;
        }
    }

    private int cycle() {
        int work = runTasks(tasks.size() + 16);
        final long now = System.nanoTime();
        if (doorbells != null) {
            work += ringDoorbells(now);
        }
        for (int i = 0; i < polledCount; ) {
            final Served entry = polled[i];
            final int done = dutyCycle(entry.connection, now);
            work += done;
            if (done > 0) {
                entry.busyAt = now;
            } else if (entry.doorbell >= 0 && !entry.closing && now - entry.busyAt >= PARK_AFTER_IDLE_NANOS
                && (now - entry.busyAt >= PARK_AFTER_IDLE_IN_USE_NANOS || !entry.connection.hasStreamsInUse())
                && entry.connection.park()) {
                unpoll(entry); // another connection took its place: look at index i again
                parked++;
                entry.wakeTimer = schedule(entry.connection.wakeDeadline(), entry.wake);
                continue;
            }
            i++;
        }
        if (closing.length > 0) {
            work += closeFlushed(now);
        }
        if (timers.timerCount() > 0) {
            work += timers.poll(now, onTimer, 64);
        }
        if (index == 0) {
            work += router.poll(this, 16);
        }
        return work;
    }

    /**
     * One connection's duty cycle, isolated: what it throws (a bug, an {@code Error} such as a fault on memory a peer
     * truncated) ends that connection with the cause and is counted, and the loop serves the others.
     */
    private int dutyCycle(final ProtocolConnection connection, final long now) {
        try {
            return connection.doWork(now);
        } catch (final Throwable error) {
            errors.onError(error);
            connection.failed("the connection's duty cycle failed", error);
            return 1;
        }
    }

    private int runTasks(final int limit) {
        int done = 0;
        Runnable task;
        while (done < limit && (task = next()) != null) {
            done++;
            run(task);
        }
        return done;
    }

    private Runnable next() {
        final Runnable task = tasks.poll();
        return task != null ? task : overflow.poll();
    }

    private int closeFlushed(final long now) {
        int closed = 0;
        for (int i = closing.length - 1; i >= 0; i--) {
            final Closing entry = closing[i];
            final ProtocolConnection connection = entry.connection;
            final boolean due = connection.isFlushed() || connection.isTerminated() || now - entry.deadline > 0;
            if (due && entry.quiescent.getAsBoolean()) {
                final Closing[] fewer = new Closing[closing.length - 1];
                System.arraycopy(closing, 0, fewer, 0, i);
                System.arraycopy(closing, i + 1, fewer, i, closing.length - i - 1);
                closing = fewer;
                if (!connection.isFlushed() && !connection.isTerminated()) {
                    connection.closingUnflushed((now - entry.deadline + entry.timeoutNanos) / 1_000_000);
                }
                try {
                    connection.close();
                } finally {
                    remove(connection);
                    entry.after.run();
                }
                closed++;
            }
        }
        return closed;
    }

    private void remove(final ProtocolConnection connection) {
        for (int i = 0; i < served.length; i++) {
            final Served entry = served[i];
            if (entry.connection == connection) {
                if (entry.polledIndex >= 0) {
                    unpoll(entry);
                } else {
                    parked--;
                }
                if (entry.wakeTimer >= 0) {
                    cancel(entry.wakeTimer);
                    entry.wakeTimer = -1;
                }
                if (entry.doorbell >= 0) {
                    doorbells.release(entry.doorbell);
                }
                final Served[] fewer = new Served[served.length - 1];
                System.arraycopy(served, 0, fewer, 0, i);
                System.arraycopy(served, i + 1, fewer, i, served.length - i - 1);
                served = fewer;
                return;
            }
        }
    }

    /**
     * The loop stops (on its thread, or the closing thread once it stopped): the tasks still queued run (closing
     * connections hand their last work here), then every connection still served is closed and every graceful close
     * waiting is finished. Later hand-overs are refused.
     */
    @Override
    public void onClose() {
        runTasks(Integer.MAX_VALUE);
        closed = true;
        runTasks(Integer.MAX_VALUE); // what raced with the flag
        final Closing[] waiting = closing;
        closing = new Closing[0];
        for (final Closing entry : waiting) {
            try {
                entry.connection.close();
            } catch (final RuntimeException ex) {
                errors.onError(ex);
            }
            remove(entry.connection);
            entry.after.run();
        }
        for (final Served entry : served) {
            try {
                entry.connection.close();
            } catch (final RuntimeException ex) {
                errors.onError(ex);
            }
        }
        served = new Served[0];
        parked = 0;
        Arrays.fill(polled, null);
        polledCount = 0;
        runTasks(Integer.MAX_VALUE); // what the closes handed over
        closeDoorbells();
    }

    @Override
    public String roleName() {
        return name;
    }

    @Override
    public String toString() {
        return "EventLoop{" + name + ", " + served.length + " connections" + (closed ? ", closed" : "") + '}';
    }

    /**
     * The loop's idle strategy, wrapped so that a loop about to idle says it sleeps and looks once more for work, and
     * threads that hand work over wake it ({@link #notifyWork()}).
     */
    IdleStrategy wrap(final IdleStrategy delegate) {
        // a strategy that never parks (busy-spin, no-op, yielding) needs no waking: its loop never says it sleeps, so
        // the threads that hand it work never pay an unpark
        final IdleStrategies.ParkPlan plan = IdleStrategies.parkPlan(delegate);
        final boolean parks = plan != null;
        mayPark = parks;
        // where the loop has a doorbell page and futexes work, it sleeps on the page's word instead of parking, so that
        // peers in other processes can wake it too
        final boolean sleepsOnPage = parks && Doorbells.canSleep();
        return new IdleStrategy() {
            private long idleTurns;
            private long sleepNanos = parks ? plan.minParkNanos() : 0;

            @Override
            public void idle(final int workCount) {
                if (workCount > 0 || !parks) {
                    idleTurns = 0;
                    sleepNanos = parks ? plan.minParkNanos() : 0;
                    delegate.idle(workCount);
                    return;
                }
                idleTurns++;
                sleeping = true;
                VarHandle.fullFence();
                final long seen = signals.get();
                if (seen == signalsSeen && tasks.isEmpty() && overflow.isEmpty() && !stopping) {
                    final Doorbells bells = doorbells;
                    if (idleTurns > plan.turnsBeforePark() && armWakeups()) {
                        // a completion queue was just asked to wake this loop: one more look first, for a completion
                        // that came before it was asked
                    } else if (sleepsOnPage && bells != null && idleTurns > plan.turnsBeforePark()) {
                        sleepOn(bells, seen, sleepNanos);
                        sleepNanos = Math.min(sleepNanos << 1, plan.maxParkNanos());
                    } else {
                        delegate.idle(0);
                    }
                }
                signalsSeen = seen;
                sleeping = false;
            }

            @Override
            public void idle() {
                delegate.idle();
            }

            @Override
            public void reset() {
                delegate.reset();
            }

            @Override
            public String alias() {
                return delegate.alias();
            }
        };
    }
}
