package io.rdmareactive.perf.compare.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * The plain-TCP baseline: Reactor Netty's {@link TcpServer} and {@link TcpClient} on 127.0.0.1 (NIO event loops,
 * TCP_NODELAY), messages framed by a 4-byte length. The client writes and flushes each message from its own thread
 * while the channel is writable (Netty's write-buffer high-water mark is the backpressure); the server's handler
 * echoes each frame or hands it to the consumer on the event loop.
 */
public final class NettyTcpTransport implements Transport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return "netty-tcp";
    }

    @Override
    public String setup() {
        return "Reactor Netty TCP on 127.0.0.1 (NIO event loops, which block in "
            + "select when idle; TCP_NODELAY): length-prefixed frames, writeAndFlush from the client thread while "
            + "the channel is writable; Reactor Netty's inbound Flux on the event loop on the receiving side";
    }

    @Override
    public Session open(final SessionSpec spec) {
        final int maxFrame = spec.messageLength() + 4;
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final DisposableServer server = TcpServer.create().host("127.0.0.1").port(0)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .doOnConnection(connection -> connection.addHandlerLast("frames",
                new LengthFieldBasedFrameDecoder(maxFrame, 0, 4, 0, 0)))
            .handle((in, out) -> {
                if (spec.echo()) {
                    return out.send(in.receive().retain());
                }
                final FrameConsumer consumer = new FrameConsumer(spec.consumers().apply(accepted.getAndIncrement()));
                return in.receive().doOnNext(consumer::accept).then();
            })
            .bindNow(TIMEOUT);
        final List<Connection> connections = new ArrayList<>();
        final List<Link> links = new ArrayList<>();
        try {
            for (int stream = 0; stream < spec.streams(); stream++) {
                final Connection connection = TcpClient.create().host("127.0.0.1").port(server.port())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .doOnConnected(c -> c.addHandlerLast("frames",
                        new LengthFieldBasedFrameDecoder(maxFrame, 0, 4, 0, 0)))
                    .connectNow(TIMEOUT);
                if (!spec.echo()) {
                    Accepted.await(accepted, stream + 1, TIMEOUT);
                }
                if (spec.echo()) {
                    final FrameConsumer replies = new FrameConsumer(spec.replies());
                    connection.inbound().receive().subscribe(replies::accept, failure::set);
                }
                connections.add(connection);
                links.add(new TcpLink(connection.channel(), failure));
            }
        } catch (final RuntimeException ex) {
            connections.forEach(Connection::disposeNow);
            server.disposeNow();
            throw ex;
        }
        return new Session() {
            @Override
            public Link link(final int stream) {
                return links.get(stream);
            }

            @Override
            public void close() {
                connections.forEach(connection -> connection.disposeNow(TIMEOUT));
                server.disposeNow(TIMEOUT);
            }
        };
    }

    @Override
    public void close() {
        // the event loops are Reactor Netty's shared ones; sessions close their channels
    }

    private record TcpLink(Channel channel, AtomicReference<Throwable> failure) implements Link {

        @Override
        public boolean offer(final DirectBuffer buffer, final int offset, final int length) {
            final Throwable cause = failure.get();
            if (cause != null) {
                throw new IllegalStateException("the TCP connection failed: " + cause, cause);
            }
            if (!channel.isActive()) {
                throw new IllegalStateException("the TCP connection closed");
            }
            if (!channel.isWritable()) {
                return false;
            }
            final ByteBuf frame = channel.alloc().directBuffer(length + 4);
            frame.writeInt(length);
            final byte[] array = buffer.byteArray();
            if (array != null) {
                frame.writeBytes(array, buffer.wrapAdjustment() + offset,
                    length);
            } else {
                for (int i = 0; i < length; i++) {
                    frame.writeByte(buffer.getByte(offset + i));
                }
            }
            channel.writeAndFlush(frame, channel.voidPromise());
            return true;
        }

        @Override
        public int poll() {
            return 0;
        }
    }

    /** Hands each frame's payload to a handler as a view (Reactor Netty releases the frame afterwards). */
    private static final class FrameConsumer {
        private final MessageHandler handler;
        private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

        FrameConsumer(final MessageHandler handler) {
            this.handler = handler;
        }

        void accept(final ByteBuf frame) {
            final int length = frame.readableBytes() - 4;
            if (frame.hasMemoryAddress()) {
                view.wrap(frame.memoryAddress() + frame.readerIndex() + 4, length);
            } else {
                view.wrap(frame.nioBuffer(frame.readerIndex() + 4, length));
            }
            handler.onMessage(view, 0, length);
        }
    }
}
