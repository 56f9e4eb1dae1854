package io.rdmareactive.internal.driver;

import io.rdmareactive.ring.OffHeapMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Runs the driver's agents (the duty cycles: a completion-queue poller per device, a conductor) in one of the
 * {@link ThreadingMode}s, with a bounded command queue through which application threads hand work to them.
 *
 * <pre>
 * try (DriverCounters counters = DriverCounters.create(directory, "node-1");
 *      DriverRunner driver = DriverRunner.builder("node-1")
 *          .threadingMode(ThreadingMode.SHARED)
 *          .idleStrategy("backoff")
 *          .counters(counters)
 *          .agent(conductor)
 *          .agent(poller)
 *          .start()) {
 *     driver.offer(() -&gt; conductor.addConnection(connection)); // false if the queue is full
 * }
 * </pre>
 *
 * <h2>Threads</h2>
 * {@link ThreadingMode#SHARED} runs one platform thread {@code rdma-driver-<name>} over all agents;
 * {@link ThreadingMode#DEDICATED} runs one thread per agent, {@code rdma-driver-<name>-<role>}; both are daemon
 * threads, each with its own {@link IdleStrategy} from the configured supplier, each an Agrona {@link AgentRunner}.
 * {@link ThreadingMode#INVOKER} starts no thread: the application calls {@link #invoke()}. {@code onStart()} runs on
 * the agent's thread (in INVOKER mode, on the thread that calls {@link Builder#start()}).
 *
 * <h2>Commands</h2>
 * {@link #offer(Runnable)} queues internal driver work (see {@link CommandAgent}: commands are the driver's own code,
 * never user code, and user code never runs on a driver thread). The commands run on the thread of the first agent,
 * before it, up to {@link Builder#commandsPerDutyCycle(int)} per duty cycle.
 *
 * <h2>Errors</h2>
 * Every exception an agent throws (from {@code onStart}, {@code doWork} or {@code onClose}) is counted in
 * {@link DriverCounters#errors()} and logged through {@link System.Logger} at ERROR, the 1st, 2nd, 4th, 8th ... of
 * them (a failing duty cycle repeats thousands of times a second; the counter has every one). After an exception
 * from {@code doWork} the agent keeps running: its next duty cycle comes as usual (Agrona's {@link AgentRunner}
 * semantics; in SHARED mode the other agents keep their turns). Three things stop a thread instead, as in Agrona: an
 * exception from {@code onStart}, an {@link org.agrona.concurrent.AgentTerminationException}, and an {@link Error}
 * (which is counted, logged, and ends the thread; its agents are closed by {@link #close()}).
 *
 * <h2>Closing</h2>
 * {@link #close()} refuses further commands, stops the threads, waits for each at most
 * {@link Builder#closeTimeout(Duration)} (interrupting it halfway), and closes every agent once ({@code onClose()},
 * on the agent's own thread where it still runs). It is idempotent. A thread whose {@code doWork()} never returns is
 * left behind, a daemon, with an ERROR log and its stack: the runner then keeps the counters mapped, because the
 * thread may still write them. The runner holds a lease on the counters' memory while its threads may use it, so
 * the counters may be closed before the runner.
 *
 * <p>Thread safety: {@link #offer(Runnable)} from any thread; {@link #invoke()} from one thread at a time; in INVOKER
 * mode, {@link #close()} from the invoking thread or once it has stopped invoking; otherwise {@link #close()} from
 * any thread but a driver thread.
 */
public final class DriverRunner implements AutoCloseable {

    /** Every driver thread's name starts with this. */
    public static final String THREAD_NAME_PREFIX = "rdma-driver-";
    /** Commands the queue holds unless {@link Builder#commandQueueCapacity(int)} says otherwise. */
    public static final int DEFAULT_COMMAND_QUEUE_CAPACITY = 1024;
    /** Commands run per duty cycle unless {@link Builder#commandsPerDutyCycle(int)} says otherwise. */
    public static final int DEFAULT_COMMANDS_PER_DUTY_CYCLE = 64;
    /** How long {@link #close()} waits for each thread unless {@link Builder#closeTimeout(Duration)} says otherwise. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final System.Logger LOG = System.getLogger(DriverRunner.class.getName());

    private final String name;
    private final ThreadingMode mode;
    private final CommandAgent commands;
    private final CountingErrorHandler errorHandler;
    private final List<Worker> workers = new ArrayList<>();
    private final AgentInvoker invoker;
    private final OnceAgent invokerAgent;
    private final OffHeapMemory.Lease countersLease;
    private final long closeTimeoutMs;
    private final Object closeLock = new Object();
    private volatile boolean closed;

    private DriverRunner(final Builder builder, final Supplier<? extends IdleStrategy> idleStrategies) {
        this.name = builder.name;
        this.mode = builder.mode;
        this.closeTimeoutMs = Math.max(2, builder.closeTimeout.toMillis());
        this.commands = new CommandAgent(builder.commandQueueCapacity, builder.commandsPerDutyCycle);
        this.countersLease = builder.counters.retain();
        this.errorHandler = new CountingErrorHandler(name, builder.counters.errors());
        final List<Agent> agents = builder.agents;
        if (mode == ThreadingMode.INVOKER) {
            invokerAgent = new OnceAgent(composite(commands, agents));
            invoker = new AgentInvoker(errorHandler, null, invokerAgent);
            invoker.start();
            return;
        }
        invoker = null;
        invokerAgent = null;
        try {
            if (mode == ThreadingMode.SHARED) {
                startWorker(THREAD_NAME_PREFIX + name, composite(commands, agents), idleStrategies);
            } else {
                final Set<String> names = new HashSet<>();
                for (int i = 0; i < Math.max(1, agents.size()); i++) {
                    final Agent agent = i > 0 ? agents.get(i)
                        : composite(commands, agents.isEmpty() ? List.of() : List.of(agents.get(0)));
                    final String role = agents.isEmpty() ? commands.roleName() : agents.get(i).roleName();
                    String threadName = THREAD_NAME_PREFIX + name + "-" + sanitize(role);
                    if (!names.add(threadName)) {
                        threadName = threadName + "-" + i;
                        names.add(threadName);
                    }
                    startWorker(threadName, agent, idleStrategies);
                }
            }
        } catch (final RuntimeException | Error ex) {
            close();
            throw ex;
        }
    }

    /**
     * @param name the driver's name, 1 to 64 of {@code [A-Za-z0-9._-]}; its threads are named after it
     * @return a builder; {@link Builder#counters(DriverCounters)} is required
     */
    public static Builder builder(final String name) {
        return new Builder(name);
    }

    /** @return the driver's name */
    public String name() {
        return name;
    }

    /** @return how the agents run */
    public ThreadingMode mode() {
        return mode;
    }

    /**
     * Hands internal work to the driver thread; see {@link CommandAgent}. Never blocks.
     *
     * @param command the driver's own work: short, non-blocking, never user code
     * @return true if queued; false if the queue is full or the runner is closed
     */
    public boolean offer(final Runnable command) {
        return !closed && commands.offer(command);
    }

    /** @return how many commands the queue holds (the configured capacity rounded up to a power of two) */
    public int commandQueueCapacity() {
        return commands.capacity();
    }

    /**
     * Runs one duty cycle of every agent on the calling thread: queued commands first, then each agent's
     * {@code doWork()}. Exceptions are counted and logged, not thrown (see the class comment). Allocates nothing.
     *
     * @return the work done, as the agents count it; 0 once closed
     * @throws IllegalStateException if the mode is not {@link ThreadingMode#INVOKER}
     */
    public int invoke() {
        if (invoker == null) {
            throw new IllegalStateException("driver " + name + " runs its own threads (" + mode + "); invoke() is for "
                + ThreadingMode.INVOKER + " mode");
        }
        return invoker.invoke();
    }

    /** @return true once {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /** @return the driver's threads, none in INVOKER mode */
    List<Thread> threads() {
        final List<Thread> threads = new ArrayList<>(workers.size());
        for (final Worker worker : workers) {
            threads.add(worker.thread);
        }
        return threads;
    }

    /**
     * Stops the threads (waiting for each at most the close timeout), closes every agent once, discards queued
     * commands and releases the counters. Idempotent.
     *
     * @throws IllegalStateException if called on one of this runner's threads, which would wait for itself
     */
    @Override
    public void close() {
        for (final Worker worker : workers) {
            if (worker.thread == Thread.currentThread()) {
                throw new IllegalStateException("driver " + name + " cannot be closed from its own thread "
                    + worker.thread.getName() + ", which close() waits for; close it from another thread");
            }
        }
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
            boolean stopped = true;
            if (invoker != null) {
                invoker.close();
            }
            for (final Worker worker : workers) {
                stopped &= stop(worker);
            }
            if (stopped) {
                countersLease.close();
            } else {
                LOG.log(System.Logger.Level.ERROR, "driver " + name + ": keeping its counters mapped, because a "
                    + "thread that may write them still runs");
            }
        }
    }

    @Override
    public String toString() {
        return "DriverRunner{" + name + ", " + mode + (closed ? ", closed" : "") + '}';
    }

    private void startWorker(final String threadName, final Agent agent, final Supplier<? extends IdleStrategy> idle) {
        final IdleStrategy idleStrategy = Objects.requireNonNull(idle.get(),
            "the idle strategy supplier returned null");
        final OnceAgent once = new OnceAgent(agent);
        final AgentRunner runner = new AgentRunner(idleStrategy, errorHandler, null, once);
        final Thread thread = Thread.ofPlatform().name(threadName).daemon(true)
            .uncaughtExceptionHandler((t, error) -> LOG.log(System.Logger.Level.ERROR, "driver thread " + t.getName()
                + " ended by " + error + "; its agents are closed when the driver closes", error))
            .unstarted(runner);
        workers.add(new Worker(once, runner, thread));
        thread.start();
    }

    /** @return true if the thread ended and its agent is closed */
    private boolean stop(final Worker worker) {
        final long halfMs = Math.max(1, closeTimeoutMs / 2);
        final int[] timeouts = {0};
        try {
            worker.runner.close((int) Math.min(halfMs, Integer.MAX_VALUE), thread -> {
                if (++timeouts[0] > 1) {
                    throw new StillRunning();
                }
                LOG.log(System.Logger.Level.WARNING, "driver thread " + thread.getName() + " did not stop within "
                    + halfMs + " ms of close(); interrupting it");
            });
        } catch (final StillRunning ex) {
            final StringBuilder stack = new StringBuilder();
            for (final StackTraceElement frame : worker.thread.getStackTrace()) {
                stack.append("\n\tat ").append(frame);
            }
            LOG.log(System.Logger.Level.ERROR, "driver thread " + worker.thread.getName() + " still runs "
                + closeTimeoutMs + " ms after close(): an agent's doWork() does not return. Leaving the thread "
                + "behind (it is a daemon). It is at:" + stack);
            return false;
        }
        try {
            // the runner reports closed as its run() returns; the thread may still be ending (an uncaught Error)
            if (!worker.thread.join(Duration.ofMillis(halfMs))) {
                return false;
            }
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            worker.agent.onClose(); // only if the thread ended without closing it (an Error escaped doWork)
        } catch (final Throwable t) {
            errorHandler.onError(t);
        }
        return true;
    }

    private static Agent composite(final CommandAgent commands, final List<Agent> agents) {
        if (agents.isEmpty()) {
            return commands;
        }
        final List<Agent> all = new ArrayList<>(agents.size() + 1);
        all.add(commands);
        all.addAll(agents);
        return new CompositeAgent(all);
    }

    private static String sanitize(final String role) {
        final String clean = role == null ? "agent" : role.replaceAll("[^A-Za-z0-9._-]", "_");
        return clean.isEmpty() ? "agent" : clean.length() > 32 ? clean.substring(0, 32) : clean;
    }

    private record Worker(OnceAgent agent, AgentRunner runner, Thread thread) {
    }

    /** Thrown out of {@link AgentRunner#close(int, java.util.function.Consumer)} to bound its wait. */
    private static final class StillRunning extends RuntimeException {
        StillRunning() {
            super(null, null, false, false);
        }
    }

    /** An agent whose {@code onClose()} runs at most once, whoever calls it. */
    private static final class OnceAgent implements Agent {
        private final Agent delegate;
        private final AtomicBoolean closed = new AtomicBoolean();

        OnceAgent(final Agent delegate) {
            this.delegate = delegate;
        }

        @Override
        public void onStart() {
            delegate.onStart();
        }

        @Override
        public int doWork() throws Exception {
            return delegate.doWork();
        }

        @Override
        public void onClose() {
            if (closed.compareAndSet(false, true)) {
                delegate.onClose();
            }
        }

        @Override
        public String roleName() {
            return delegate.roleName();
        }
    }

    /** Counts every error into the errors counter and logs the 1st, 2nd, 4th, 8th ... of them. */
    static final class CountingErrorHandler implements ErrorHandler {
        private final String driver;
        private final AtomicCounter errors;
        private final AtomicLong seen = new AtomicLong();

        CountingErrorHandler(final String driver, final AtomicCounter errors) {
            this.driver = driver;
            this.errors = errors;
        }

        @Override
        public void onError(final Throwable error) {
            errors.increment();
            final long count = seen.incrementAndGet();
            if ((count & (count - 1)) == 0) {
                final String thread = Thread.currentThread().getName();
                LOG.log(System.Logger.Level.ERROR, () -> "driver " + driver + ", thread " + thread + ": error " + count
                    + " (logged at 1, 2, 4, 8, ...; the 'errors' counter has every one)", error);
            }
        }
    }

    /** Configures and starts a {@link DriverRunner}. Not thread-safe; start it once. */
    public static final class Builder {
        private final String name;
        private final List<Agent> agents = new ArrayList<>();
        private ThreadingMode mode = ThreadingMode.SHARED;
        private Supplier<? extends IdleStrategy> idleStrategies;
        private DriverCounters counters;
        private int commandQueueCapacity = DEFAULT_COMMAND_QUEUE_CAPACITY;
        private int commandsPerDutyCycle = DEFAULT_COMMANDS_PER_DUTY_CYCLE;
        private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;

        private Builder(final String name) {
            Objects.requireNonNull(name, "name");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("the driver name '" + name + "' must be 1 to 64 letters, digits, "
                    + "'.', '_' or '-'");
            }
            this.name = name;
        }

        /** @param mode how to run the agents; default {@link ThreadingMode#SHARED} */
        public Builder threadingMode(final ThreadingMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * @param spec an {@link IdleStrategies} form; default {@link IdleStrategies#configured()}
         * @throws IllegalArgumentException if the form is not valid
         */
        public Builder idleStrategy(final String spec) {
            this.idleStrategies = IdleStrategies.supplier(spec);
            return this;
        }

        /** @param idleStrategies makes a new strategy for each thread (strategies such as backoff keep state) */
        public Builder idleStrategy(final Supplier<? extends IdleStrategy> idleStrategies) {
            this.idleStrategies = Objects.requireNonNull(idleStrategies, "idleStrategies");
            return this;
        }

        /**
         * @param counters where errors are counted; required. They may be closed before the runner, which holds a
         *                 lease on their memory while its threads run.
         */
        public Builder counters(final DriverCounters counters) {
            this.counters = Objects.requireNonNull(counters, "counters");
            return this;
        }

        /**
         * Adds a duty cycle. The first agent added shares its thread with the command queue (make it the conductor).
         *
         * @param agent an agent, not shared with another runner
         */
        public Builder agent(final Agent agent) {
            agents.add(Objects.requireNonNull(agent, "agent"));
            return this;
        }

        /** @param capacity commands the queue holds, 1 to 2^20, rounded up to a power of two; default 1024 */
        public Builder commandQueueCapacity(final int capacity) {
            this.commandQueueCapacity = capacity;
            return this;
        }

        /** @param limit the most commands one duty cycle runs, at least 1; default 64 */
        public Builder commandsPerDutyCycle(final int limit) {
            this.commandsPerDutyCycle = limit;
            return this;
        }

        /** @param timeout how long {@link DriverRunner#close()} waits for each thread, positive; default 10 s */
        public Builder closeTimeout(final Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the close timeout must be positive, not " + timeout);
            }
            this.closeTimeout = timeout;
            return this;
        }

        /**
         * Starts the threads (or, in INVOKER mode, the agents' {@code onStart()} on this thread).
         *
         * @return the running driver
         * @throws IllegalStateException    if no counters were given, or they are closed
         * @throws IllegalArgumentException if the command queue settings are out of range
         */
        public DriverRunner start() {
            if (counters == null) {
                throw new IllegalStateException("driver " + name + " needs counters: call counters(DriverCounters)");
            }
            final Supplier<? extends IdleStrategy> idle = idleStrategies != null ? idleStrategies
                : IdleStrategies.supplier(IdleStrategies.configured());
            return new DriverRunner(this, idle);
        }
    }
}
