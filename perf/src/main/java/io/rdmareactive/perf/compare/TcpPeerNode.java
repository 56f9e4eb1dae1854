package io.rdmareactive.perf.compare;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.time.Duration;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * A peer-kill peer over Reactor Netty TCP on 127.0.0.1 (4-byte length-prefixed frames, TCP_NODELAY), as the
 * comparison's {@code netty-tcp} transport: a server whose inbound {@code Flux} of frames is checked, and per other
 * peer a client channel written while writable. A failure is what Reactor Netty says: the end or error of an inbound
 * {@code Flux}, a client connection's {@code onDispose()}, a channel no longer active.
 */
final class TcpPeerNode implements PeerNode {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final int size;
    private final PeerLedger ledger;
    private final DisposableServer server;
    private final Connection[] connections;
    private final boolean[] failed;

    TcpPeerNode(final int peers, final int size, final PeerLedger ledger) {
        this.size = size;
        this.ledger = ledger;
        this.connections = new Connection[peers];
        this.failed = new boolean[peers];
        this.server = TcpServer.create().host("127.0.0.1").port(0).childOption(ChannelOption.TCP_NODELAY, true)
            .doOnConnection(connection -> connection.addHandlerLast("frames",
                new LengthFieldBasedFrameDecoder(size + 4, 0, 4, 0, 4)))
            .handle((in, out) -> {
                final int[] source = {-1};
                final UnsafeBuffer view = new UnsafeBuffer(0, 0);
                return in.receive().doOnNext(frame -> {
                    wrap(view, frame);
                    if (source[0] < 0 && view.capacity() == size) {
                        source[0] = view.getInt(PeerLedger.SOURCE_OFFSET);
                    }
                    ledger.onMessage(view, 0, view.capacity());
                }).doOnError(error -> report(source[0], "inbound error: " + error))
                    .doOnComplete(() -> report(source[0], "inbound completed")).then();
            }).bindNow(TIMEOUT);
    }

    private static void wrap(final UnsafeBuffer view, final ByteBuf frame) {
        if (frame.hasMemoryAddress()) {
            view.wrap(frame.memoryAddress() + frame.readerIndex(), frame.readableBytes());
        } else {
            view.wrap(frame.nioBuffer(frame.readerIndex(), frame.readableBytes()));
        }
    }

    private void report(final int peer, final String how) {
        if (peer >= 0) {
            ledger.failed(peer, how);
        }
    }

    @Override
    public String address() {
        return String.valueOf(server.port());
    }

    @Override
    public void connect(final int peer, final String port) {
        final Connection connection = TcpClient.create().host("127.0.0.1").port(Integer.parseInt(port))
            .option(ChannelOption.TCP_NODELAY, true).connectNow(TIMEOUT);
        connections[peer] = connection;
        connection.onDispose().subscribe(null, error -> fail(peer, "connection ended: " + error),
            () -> fail(peer, "connection closed"));
    }

    private void fail(final int peer, final String how) {
        failed[peer] = true;
        ledger.failed(peer, how);
    }

    @Override
    public boolean offer(final int peer, final DirectBuffer buffer, final int length) {
        if (failed[peer]) {
            return false;
        }
        final Channel channel = connections[peer].channel();
        if (!channel.isActive()) {
            fail(peer, "channel no longer active");
            return false;
        }
        if (!channel.isWritable()) {
            return false;
        }
        final ByteBuf frame = channel.alloc().directBuffer(length + 4);
        frame.writeInt(length);
        for (int i = 0; i < length; i += Long.BYTES) {
            frame.writeLongLE(buffer.getLong(i));
        }
        channel.writeAndFlush(frame, channel.voidPromise());
        return true;
    }

    @Override
    public void close() {
        for (final Connection connection : connections) {
            if (connection != null) {
                connection.disposeNow(TIMEOUT);
            }
        }
        server.disposeNow(TIMEOUT);
    }
}
