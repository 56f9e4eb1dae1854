package io.rdmareactive.internal.reactive;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import reactor.core.scheduler.NonBlocking;

/**
 * The one thread that runs a connection's reactive work (decoding, {@code onNext}, encoding, requests to the
 * publisher), one task at a time, in the order they were handed over; never the driver thread.
 *
 * <p><b>Handing over allocates nothing.</b> {@link #execute(Runnable)} puts the task (in the data path, the stream's
 * own drain, a preallocated {@link Runnable}) into an Agrona {@link ManyToOneConcurrentArrayQueue} of fixed capacity:
 * no task object, no future, no lock. The data path needs at most one entry per stream direction at a time (a
 * stream's work-in-progress counter keeps its drain scheduled once), so the capacity, a few entries per stream, is
 * never reached by it; requests from application threads ({@link #tryExecute(Runnable)}) are refused before the
 * queue gets that full, and only internal work beyond the capacity (which the sizing rules out) would spill into an
 * unbounded overflow queue rather than be lost. Tasks handed over by one thread run in the order it handed them
 * over, overflow or not: once something waits in the overflow, later tasks queue behind it there.
 *
 * <p><b>Idling.</b> After its last task the thread keeps polling with the connection's idle strategy (busy-spin,
 * yield, back off) for {@link #POLL_BEFORE_PARK_NANOS}, then parks until a task arrives: the hand-over then wakes it
 * ({@link LockSupport#unpark}, a system call) only if it is parked. Under steady load it never parks.
 *
 * <p>A task that throws is logged (ERROR) and the next one runs. {@link #close()} stops the thread after its current
 * task; tasks still queued are dropped, and later hand-overs are refused. The thread is a daemon and a Reactor
 * {@link NonBlocking} thread, so {@code block()} called on it fails as it does on Reactor's own parallel threads.
 */
public final class ConnectionWorker implements AutoCloseable {

    /** How long the thread polls after its last task before it parks. */
    public static final long POLL_BEFORE_PARK_NANOS = 50_000;
    /** Queue entries per stream: its inbound drain, its outbound drain, the check for an OPEN, lifecycle work. */
    static final int ENTRIES_PER_STREAM = 4;

    private static final System.Logger LOG = System.getLogger(ConnectionWorker.class.getName());

    private final ManyToOneConcurrentArrayQueue<Runnable> tasks;
    /** Entries kept free of application requests, for the data path and lifecycle work: 3 per stream. */
    private final int reserved;
    private final ConcurrentLinkedQueue<Runnable> overflow = new ConcurrentLinkedQueue<>();
    private final IdleStrategy idle;
    private final WorkerThread thread;
    private volatile boolean parked;
    private volatile boolean closed;

    /**
     * Starts the thread.
     *
     * @param name    the thread's name
     * @param streams the connection's streams: the queue holds {@value #ENTRIES_PER_STREAM} tasks per stream and 64
     *                more
     * @param idle    how the thread polls before it parks (a strategy of its own: not shared with another thread)
     */
    public ConnectionWorker(final String name, final int streams, final IdleStrategy idle) {
        if (streams < 1) {
            throw new IllegalArgumentException("streams must be positive: " + streams);
        }
        this.reserved = 3 * streams;
        this.tasks = new ManyToOneConcurrentArrayQueue<>(ENTRIES_PER_STREAM * streams + 64);
        this.idle = Objects.requireNonNull(idle, "idle");
        this.thread = new WorkerThread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Hands internal work to the thread (from any thread, the driver's included): never blocks, allocates nothing
     * (but the task, if the caller makes one), and wakes the thread if it is parked.
     *
     * @return false once the worker is closed (the task will not run)
     */
    public boolean execute(final Runnable task) {
        if (closed) {
            return false;
        }
        if (!overflow.isEmpty() || !tasks.offer(task)) {
            overflow.add(task); // beyond the sizing (see the class comment); behind earlier overflow, so in order
        }
        wake();
        return true;
    }

    /**
     * Hands over work an application thread asked for (a new request): refused, rather than queued, when the queue
     * is so full that the data path's room would shrink.
     *
     * @return false if refused or closed (the task will not run)
     */
    public boolean tryExecute(final Runnable task) {
        if (closed || !overflow.isEmpty() || tasks.size() >= tasks.capacity() - reserved || !tasks.offer(task)) {
            return false;
        }
        wake();
        return true;
    }

    private void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Stops the thread after its current task; queued tasks are dropped. Safe from any thread, the worker's too. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    /** @return true once {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    private void loop() {
        long idleSince = 0;
        while (!closed) {
            final int work = runTasks();
            if (work > 0) {
                idleSince = 0;
                idle.reset();
                continue;
            }
            final long now = System.nanoTime();
            if (idleSince == 0) {
                idleSince = now;
            }
            if (now - idleSince < POLL_BEFORE_PARK_NANOS) {
                idle.idle();
                continue;
            }
            Thread.interrupted(); // a task may have left its interrupt set: nothing here uses it, and park would not
            parked = true; // then look again: a hand-over either sees this flag or its task is seen here
            if (tasks.isEmpty() && overflow.isEmpty() && !closed) {
                LockSupport.park(this);
            }
            parked = false;
            idleSince = 0;
            idle.reset();
        }
        tasks.clear();
        overflow.clear();
    }

    private int runTasks() {
        int done = 0;
        Runnable task;
        while (!closed && (task = next()) != null) {
            done++;
            try {
                task.run();
            } catch (final Throwable error) {
                LOG.log(System.Logger.Level.ERROR, "a task of " + thread.getName() + " failed", error);
                if (error instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
            }
        }
        return done;
    }

    private Runnable next() {
        final Runnable task = tasks.poll();
        return task != null ? task : overflow.poll();
    }

    /** A worker thread is a Reactor non-blocking thread, like the parallel scheduler's. */
    private static final class WorkerThread extends Thread implements NonBlocking {
        WorkerThread(final Runnable body, final String name) {
            super(body, name);
        }
    }
}
