package io.rdmareactive.provider.shm;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The connection manager's side channel: a UNIX-domain socket between the two processes of a connection, carrying
 * small length-prefixed frames (connect, accept, reject, disconnect, queue pair error). The kernel closes it when a
 * process dies, so its end-of-file is how a dead peer is noticed at once.
 *
 * <pre>
 *  frame: 0 length of what follows (int, big-endian) | 4 type (int) | 8 payload
 *  CONNECT:    magic, version, pid (long), device id (string), qp number, private data (bytes)
 *  ACCEPT:     device id (string), qp number, private data (bytes)
 *  REJECT:     private data (bytes), reason (string)
 *  DISCONNECT: reason (string)
 *  QP_ERROR:   reason (string)
 *  string / bytes: length (short) then the bytes
 * </pre>
 *
 * <p>The channel is non-blocking; setup waits with a selector and a deadline.
 */
final class CmChannel implements AutoCloseable {

    static final int MAGIC = 0x52524d43; // "RRMC"
    static final int VERSION = 1;
    static final int CONNECT = 1;
    static final int ACCEPT = 2;
    static final int REJECT = 3;
    static final int DISCONNECT = 4;
    static final int QP_ERROR = 5;
    static final int MAX_FRAME = 4096;

    private final SocketChannel channel;
    private final ByteBuffer inbound = ByteBuffer.allocate(MAX_FRAME + 8);

    CmChannel(final SocketChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
    }

    static CmChannel connect(final Path socket) throws IOException {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            return new CmChannel(channel);
        } catch (final IOException | RuntimeException ex) {
            channel.close();
            throw ex;
        }
    }

    /** The user this process runs as, to compare with a peer's (by uid: a principal's equality is its uid's). */
    private static final UserPrincipal ME = io.rdmareactive.ring.PrivateDirectory.currentUser();

    /**
     * The kernel's word on who is at the other end of the socket (SO_PEERCRED): a shared-memory peer must run as this
     * process's user. The directory (0700) and the files (0600) already keep other users out; this check refuses
     * them with a reason where a directory's mode was loosened, or for root, whom modes do not stop.
     *
     * @return null if the peer runs as this user, else why it is refused
     */
    String otherUser() {
        try {
            final UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return peer.user().equals(ME) ? null : "the peer process runs as user '" + peer.user().getName()
                + "', this one as '" + (ME == null ? "?" : ME.getName()) + "': shared-memory peers must be the same user";
        } catch (final IOException | UnsupportedOperationException ex) {
            return "cannot tell which user the peer process runs as (" + ex + ")";
        }
    }

    SocketChannel channel() {
        return channel;
    }

    /** Sends one frame; waits at most a few seconds for room in the socket. Thread safe. */
    synchronized void send(final int type, final ByteBuffer payload) throws IOException {
        final ByteBuffer frame = ByteBuffer.allocate(8 + payload.remaining());
        frame.putInt(4 + payload.remaining()).putInt(type).put(payload).flip();
        final long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (frame.hasRemaining()) {
            if (channel.write(frame) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the peer does not read its connection-manager socket");
                }
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /**
     * Waits for one frame.
     *
     * @return the frame, or null if none came before the timeout
     * @throws IOException on end-of-file (the message says so) or a malformed frame
     */
    Frame receive(final Duration timeout) throws IOException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        Frame frame = nextFrame();
        if (frame != null) {
            return frame;
        }
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_READ);
            while (true) {
                final long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                selector.select(Math.max(1, remaining / 1_000_000));
                selector.selectedKeys().clear();
                if (readSome() < 0) {
                    throw new IOException("the peer closed the connection");
                }
                frame = nextFrame();
                if (frame != null) {
                    return frame;
                }
            }
        } finally {
            // a channel stays registered with a closed selector until the next select elsewhere; deregister now
            if (channel.isOpen()) {
                channel.configureBlocking(false);
            }
        }
    }

    /** @return bytes read, 0 if none were available, -1 at end-of-file */
    int readSome() throws IOException {
        return channel.read(inbound);
    }

    /** @return the next complete frame already read, or null */
    Frame nextFrame() throws IOException {
        if (inbound.position() < 4) {
            return null;
        }
        final int length = inbound.getInt(0);
        if (length < 4 || length > MAX_FRAME) {
            throw new IOException("malformed connection-manager frame of length " + length);
        }
        if (inbound.position() < 4 + length) {
            return null;
        }
        inbound.flip();
        inbound.getInt();
        final int type = inbound.getInt();
        final byte[] payload = new byte[length - 4];
        inbound.get(payload);
        inbound.compact();
        return new Frame(type, ByteBuffer.wrap(payload));
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException ignored) {
            // closing a socket whose peer is gone
        }
    }

    static void putString(final ByteBuffer buffer, final String value) {
        putBytes(buffer, value.getBytes(StandardCharsets.UTF_8));
    }

    static void putBytes(final ByteBuffer buffer, final byte[] value) {
        buffer.putShort((short) value.length).put(value);
    }

    static String getString(final ByteBuffer buffer) throws IOException {
        return new String(getBytes(buffer), StandardCharsets.UTF_8);
    }

    static byte[] getBytes(final ByteBuffer buffer) throws IOException {
        if (buffer.remaining() < 2) {
            throw new IOException("truncated connection-manager frame");
        }
        final int length = Short.toUnsignedInt(buffer.getShort());
        if (length > buffer.remaining()) {
            throw new IOException("connection-manager frame field of " + length + " bytes exceeds the frame");
        }
        final byte[] value = new byte[length];
        buffer.get(value);
        return value;
    }

    /** A received frame. */
    record Frame(int type, ByteBuffer payload) {
    }
}
