package io.rdmareactive.perf.compare.transport;

import java.util.function.IntSupplier;
import org.agrona.concurrent.IdleStrategy;

/** The server side's one thread for polled transports: runs a unit of work until stopped, idling when there is none. */
final class PollingServer implements AutoCloseable {

    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    PollingServer(final String name, final IdleStrategy idle, final IntSupplier work) {
        this.thread = Thread.ofPlatform().daemon().name(name).start(() -> {
            try {
                while (running) {
                    idle.idle(work.getAsInt());
                }
            } catch (final Throwable ex) {
                failure = ex;
            }
        });
    }

    /** @throws IllegalStateException naming the cause when the server's thread failed */
    void check() {
        final Throwable cause = failure;
        if (cause != null) {
            throw new IllegalStateException("the server thread failed: " + cause, cause);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
