package io.rdmareactive.internal.driver;

import java.util.Objects;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * The bounded queue through which application threads hand work to the driver thread, and the agent that runs that
 * work there.
 *
 * <p>Any thread may {@link #offer(Runnable)}; the queue is an Agrona {@link ManyToOneConcurrentArrayQueue} of fixed
 * capacity, so an offer never blocks, never allocates and never grows the queue: when it is full the offer returns
 * {@code false} and the caller decides (retry later, fail the request). The driver runs at most
 * {@code commandsPerDutyCycle} commands per {@link #doWork()}, in the order they were offered, so a flood of commands
 * cannot starve the polling that shares the thread.
 *
 * <p><b>Commands are internal.</b> They are the driver's own setup work (add a connection, remove a stream, close a
 * queue pair), written in this code base, short and non-blocking. User code never runs on the driver thread: the
 * reactive layer never wraps a user callback in a command. A command that throws is not retried; the exception goes
 * to the runner's error handler (counted and logged) and the remaining commands run in the next duty cycle.
 *
 * <p>Once the agent is closed, offers return {@code false}, and commands still queued are discarded without running:
 * the agents they would act on are closing too. A command offered at the very moment of closing may be discarded
 * although its offer returned {@code true}.
 */
public final class CommandAgent implements Agent {

    private static final System.Logger LOG = System.getLogger(CommandAgent.class.getName());

    private final ManyToOneConcurrentArrayQueue<Runnable> queue;
    private final int commandsPerDutyCycle;
    private volatile boolean closed;

    /**
     * @param capacity             commands the queue holds; rounded up to a power of two (see {@link #capacity()})
     * @param commandsPerDutyCycle the most commands one {@link #doWork()} runs, at least 1
     * @throws IllegalArgumentException if either is out of range
     */
    public CommandAgent(final int capacity, final int commandsPerDutyCycle) {
        if (capacity < 1 || capacity > 1 << 20) {
            throw new IllegalArgumentException("the command queue capacity must be from 1 to " + (1 << 20) + ", not "
                + capacity);
        }
        if (commandsPerDutyCycle < 1) {
            throw new IllegalArgumentException("commandsPerDutyCycle must be at least 1, not " + commandsPerDutyCycle);
        }
        this.queue = new ManyToOneConcurrentArrayQueue<>(capacity);
        this.commandsPerDutyCycle = commandsPerDutyCycle;
    }

    /**
     * Hands a command to the driver thread. Never blocks; allocates nothing (beyond the command the caller made).
     *
     * @param command internal driver work; see the class comment
     * @return true if queued, false if the queue is full or the agent is closed
     * @throws NullPointerException if {@code command} is null
     */
    public boolean offer(final Runnable command) {
        Objects.requireNonNull(command, "command");
        return !closed && queue.offer(command);
    }

    /** @return how many commands the queue holds: the requested capacity rounded up to a power of two */
    public int capacity() {
        return queue.capacity();
    }

    /** @return commands waiting now (a snapshot, exact only when no thread offers or drains) */
    public int size() {
        return queue.size();
    }

    /** Runs up to {@code commandsPerDutyCycle} queued commands, on the calling (driver) thread. */
    @Override
    public int doWork() {
        int done = 0;
        while (done < commandsPerDutyCycle) {
            final Runnable command = queue.poll();
            if (command == null) {
                break;
            }
            done++;
            command.run();
        }
        return done;
    }

    /** Refuses further offers and discards the commands still queued. */
    @Override
    public void onClose() {
        closed = true;
        int discarded = 0;
        while (queue.poll() != null) {
            discarded++;
        }
        if (discarded > 0) {
            LOG.log(System.Logger.Level.DEBUG, "discarded " + discarded + " driver commands queued at close");
        }
    }

    /** @return true once {@link #onClose()} ran */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String roleName() {
        return "commands";
    }
}
