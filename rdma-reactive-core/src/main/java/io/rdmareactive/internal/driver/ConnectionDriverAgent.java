package io.rdmareactive.internal.driver;

import io.rdmareactive.internal.protocol.ProtocolConnection;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionEventHandler;
import io.rdmareactive.spi.RdmaDevice;
import java.util.Arrays;
import java.util.function.Consumer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * The driver's duty cycle for one device: run the commands application threads handed over, run every
 * connection's protocol duty cycle (completions, credits, sends, liveness), and hand the device's connection events
 * (disconnects, dead peers) to their connections. Application code never runs here: connections tell the layer above
 * about activity through callbacks that only schedule work elsewhere.
 */
public final class ConnectionDriverAgent implements Agent, ConnectionEventHandler {

    /** Commands waiting at once, at most; {@link #offer(Runnable)} refuses more. */
    public static final int COMMAND_CAPACITY = 1024;

    private final String name;
    private final RdmaDevice device;
    private final ManyToOneConcurrentArrayQueue<Runnable> commands =
        new ManyToOneConcurrentArrayQueue<>(COMMAND_CAPACITY);
    private final Consumer<Runnable> runCommand = Runnable::run;
    private ProtocolConnection[] connections = new ProtocolConnection[0];

    public ConnectionDriverAgent(final String name, final RdmaDevice device) {
        this.name = name;
        this.device = device;
    }

    /**
     * Hands a command to the driver thread; it runs in the next duty cycle.
     *
     * @return false if the queue is full (never blocks, never grows)
     */
    public boolean offer(final Runnable command) {
        return commands.offer(command);
    }

    /** Adds a connection to the duty cycle (on the driver thread, through the command queue). */
    public boolean add(final ProtocolConnection connection) {
        return offer(() -> {
            connections = Arrays.copyOf(connections, connections.length + 1);
            connections[connections.length - 1] = connection;
        });
    }

    /**
     * Closes a connection gracefully: its duty cycle goes on until everything it committed has been sent and
     * completed (or it fails, or {@code flushTimeoutNanos} pass), then it is closed on the driver thread and dropped
     * from the duty cycle, and {@code after} runs.
     */
    public boolean close(final ProtocolConnection connection, final long flushTimeoutNanos, final Runnable after) {
        return offer(() -> {
            closing = Arrays.copyOf(closing, closing.length + 1);
            closing[closing.length - 1] = new Closing(connection, System.nanoTime() + flushTimeoutNanos, after);
        });
    }

    private record Closing(ProtocolConnection connection, long deadline, Runnable after) {
    }

    private Closing[] closing = new Closing[0];

    private int closeFlushed(final long now) {
        int closed = 0;
        for (int i = closing.length - 1; i >= 0; i--) {
            final Closing entry = closing[i];
            if (entry.connection.isFlushed() || entry.connection.isTerminated() || now - entry.deadline > 0) {
                try {
                    entry.connection.close();
                } finally {
                    remove(entry.connection);
                    final Closing[] fewer = new Closing[closing.length - 1];
                    System.arraycopy(closing, 0, fewer, 0, i);
                    System.arraycopy(closing, i + 1, fewer, i, closing.length - i - 1);
                    closing = fewer;
                    entry.after.run();
                }
                closed++;
            }
        }
        return closed;
    }

    private void remove(final ProtocolConnection connection) {
        for (int i = 0; i < connections.length; i++) {
            if (connections[i] == connection) {
                final ProtocolConnection[] fewer = new ProtocolConnection[connections.length - 1];
                System.arraycopy(connections, 0, fewer, 0, i);
                System.arraycopy(connections, i + 1, fewer, i, connections.length - i - 1);
                connections = fewer;
                return;
            }
        }
    }

    @Override
    public int doWork() {
        int work = commands.drain(runCommand, 64);
        final long now = System.nanoTime();
        final ProtocolConnection[] current = connections;
        for (final ProtocolConnection connection : current) {
            work += connection.doWork(now);
        }
        if (closing.length > 0) {
            work += closeFlushed(now);
        }
        work += device.pollEvents(this, 16);
        return work;
    }

    @Override
    public void onEvent(final ConnectionEvent event) {
        for (final ProtocolConnection connection : connections) {
            if (connection.queuePair() == event.queuePair()) {
                connection.onEvent(event);
                return;
            }
        }
    }

    @Override
    public void onClose() {
        commands.drain(runCommand);
        for (final Closing entry : closing) {
            entry.after.run();
        }
        closing = new Closing[0];
        for (final ProtocolConnection connection : connections) {
            connection.close();
        }
        connections = new ProtocolConnection[0];
    }

    @Override
    public String roleName() {
        return "rdma-driver-" + name;
    }
}
