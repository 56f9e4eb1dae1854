package io.rdmareactive.provider.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The device's connection-manager thread: it watches the sockets of every connected queue pair and turns what
 * arrives into queue pair state, as the kernel's connection manager does for verbs. A peer's disconnect or error
 * frame moves the queue pair to the error state with the peer's reason; end-of-file (the peer's process exited or was
 * killed) does the same with {@link io.rdmareactive.spi.ConnectionEvent.Type#PEER_LOST}.
 *
 * <p>It never runs user code and blocks only in {@link Selector#select()}. It starts with the device and stops
 * with it.
 */
final class ConnectionMonitor implements AutoCloseable {

    private static final Logger LOG = Loggers.getLogger(ConnectionMonitor.class);

    private final Selector selector;
    private final Thread thread;
    private final Queue<Runnable> changes = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;

    ConnectionMonitor(final String deviceId) {
        try {
            this.selector = Selector.open();
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot open a selector for the connection manager", ex);
        }
        this.thread = Thread.ofPlatform().daemon().name("rdma-shm-cm-" + deviceId).unstarted(this::run);
        thread.start();
    }

    /** Starts watching a connected queue pair's socket. */
    void watch(final ShmQueuePair queuePair) {
        changes.add(() -> {
            try {
                queuePair.channel().channel().register(selector, SelectionKey.OP_READ, queuePair);
            } catch (final ClosedChannelException ex) {
                queuePair.onPeerLost();
            }
        });
        selector.wakeup();
    }

    /** Stops watching a queue pair (it is being closed). */
    void unwatch(final ShmQueuePair queuePair) {
        final CmChannel channel = queuePair.channel();
        if (channel != null) {
            final SelectionKey key = channel.channel().keyFor(selector);
            if (key != null) {
                key.cancel();
            }
        }
        selector.wakeup();
    }

    private void run() {
        try {
            while (running) {
                selector.select();
                Runnable change;
                while ((change = changes.poll()) != null) {
                    change.run();
                }
                for (final SelectionKey key : selector.selectedKeys()) {
                    handle(key);
                }
                selector.selectedKeys().clear();
            }
        } catch (final IOException | RuntimeException ex) {
            if (running) {
                LOG.error("the shared-memory connection manager stopped", ex);
            }
        }
    }

    private void handle(final SelectionKey key) {
        final ShmQueuePair queuePair = (ShmQueuePair) key.attachment();
        if (!key.isValid()) {
            return;
        }
        final CmChannel channel = queuePair.channel();
        try {
            final int read = channel.readSome();
            CmChannel.Frame frame;
            while ((frame = channel.nextFrame()) != null) {
                queuePair.onPeerFrame(frame.type(), frame.payload());
            }
            if (read < 0) {
                key.cancel();
                queuePair.onPeerLost();
            }
        } catch (final IOException ex) {
            key.cancel();
            queuePair.onPeerLost();
        }
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(5_000);
            selector.close();
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (final IOException ignored) {
            // nothing left to release
        }
    }
}
