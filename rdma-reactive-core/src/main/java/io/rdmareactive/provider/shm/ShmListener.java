package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * Listens on a UNIX-domain socket in the device's directory. A socket file left by a dead listener is replaced; one
 * with a live listener behind it is refused with an error that says so.
 */
final class ShmListener implements Listener {

    private static final Logger LOG = Loggers.getLogger(ShmListener.class);

    private final ShmDevice device;
    private final String address;
    private final Path socket;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ShmListener(final ShmDevice device, final String address, final Path socket,
                        final ServerSocketChannel server, final Selector selector) {
        this.device = device;
        this.address = address;
        this.socket = socket;
        this.server = server;
        this.selector = selector;
    }

    static ShmListener open(final ShmDevice device, final String address, final Path socket) {
        if (Files.exists(socket)) {
            if (isLive(socket)) {
                throw new RdmaException("the address '" + address + "' is in use: a listener is accepting at " + socket
                    + "; close it first, or listen at another name");
            }
            try {
                Files.deleteIfExists(socket); // left by a listener whose process is gone
            } catch (final IOException ex) {
                throw new RdmaException("cannot remove the stale socket " + socket + ": " + ex, ex);
            }
        }
        ServerSocketChannel server = null;
        Selector selector = null;
        try {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            server.configureBlocking(false);
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
            return new ShmListener(device, address, socket, server, selector);
        } catch (final IOException ex) {
            closeQuietly(selector);
            closeQuietly(server);
            throw new RdmaException("cannot listen at '" + address + "' (" + socket + "): " + ex.getMessage(), ex);
        }
    }

    private static boolean isLive(final Path socket) {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(socket));
            return true;
        } catch (final IOException ex) {
            return false;
        }
    }

    private static void closeQuietly(final AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (final Exception ignored) {
                // cleaning up after a failed setup
            }
        }
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public ConnectRequest accept(final Duration timeout) {
        if (closed.get()) {
            throw new RdmaException("the listener at '" + address + "' is closed");
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                final SocketChannel accepted = server.accept();
                if (accepted != null) {
                    final ConnectRequest request = readRequest(accepted, deadline);
                    if (request != null) {
                        return request;
                    }
                    continue;
                }
                final long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                selector.select(Math.max(1, remaining / 1_000_000));
                selector.selectedKeys().clear();
            }
        } catch (final IOException ex) {
            if (closed.get()) {
                throw new RdmaException("the listener at '" + address + "' was closed while accepting", ex);
            }
            throw new RdmaException("accepting at '" + address + "' failed: " + ex.getMessage(), ex);
        }
    }

    /** @return the request, or null if the peer sent nothing valid (it is dropped) */
    private ConnectRequest readRequest(final SocketChannel accepted, final long deadline) throws IOException {
        final CmChannel channel = new CmChannel(accepted);
        final String otherUser = channel.otherUser();
        if (otherUser != null) {
            reject(channel, new byte[0], otherUser);
            return null;
        }
        try {
            final long remaining = Math.max(deadline - System.nanoTime(), Duration.ofSeconds(1).toNanos());
            final CmChannel.Frame frame = channel.receive(Duration.ofNanos(remaining));
            if (frame == null || frame.type() != CmChannel.CONNECT) {
                channel.close();
                return null;
            }
            final ByteBuffer payload = frame.payload();
            final int magic = payload.getInt();
            final int version = payload.getInt();
            if (magic != CmChannel.MAGIC || version != CmChannel.VERSION) {
                reject(channel, new byte[0], "connection-manager version " + version + " is not "
                    + CmChannel.VERSION + " (or not an rdma-reactive peer)");
                return null;
            }
            final long pid = payload.getLong();
            final String deviceId = CmChannel.getString(payload);
            final int qpNumber = payload.getInt();
            final byte[] privateData = CmChannel.getBytes(payload);
            return new ShmConnectRequest(device, channel, deviceId, qpNumber, pid, privateData);
        } catch (final IOException | RuntimeException ex) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("dropped a malformed connect request at '{}'", address, ex);
            }
            channel.close();
            return null;
        }
    }

    static void reject(final CmChannel channel, final byte[] privateData, final String reason) {
        final ByteBuffer payload = ByteBuffer.allocate(4 + privateData.length + reason.length() * 3);
        CmChannel.putBytes(payload, privateData);
        CmChannel.putString(payload, reason);
        try {
            channel.send(CmChannel.REJECT, payload.flip());
        } catch (final IOException ignored) {
            // the peer is gone: nobody to tell
        } finally {
            channel.close();
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closeQuietly(selector);
            closeQuietly(server);
            try {
                Files.deleteIfExists(socket);
            } catch (final IOException ignored) {
                // the directory is gone
            }
            device.forget(this);
        }
    }
}
