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

    /** Closes a connection on the driver thread and drops it from the duty cycle; then runs {@code after}. */
    public boolean close(final ProtocolConnection connection, final Runnable after) {
        return offer(() -> {
            try {
                connection.close();
            } finally {
                remove(connection);
                after.run();
            }
        });
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
