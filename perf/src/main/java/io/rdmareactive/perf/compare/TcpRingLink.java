package io.rdmareactive.perf.compare;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.rdmareactive.samples.FloatCopies;
import io.rdmareactive.samples.LinkWaiter;
import io.rdmareactive.samples.RingLink;
import io.rdmareactive.samples.SliceReceiver;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * A {@link RingLink} over TCP with Reactor Netty: each rank serves on 127.0.0.1, where its left neighbour connects
 * with a {@link TcpClient}; a slice is one frame with a 4-byte length prefix. A send copies the slice into a direct
 * buffer and writes it from the rank's thread, waiting while {@value #IN_FLIGHT} writes are not yet done (the
 * socket's back-pressure); the frames from the left are stored on the event loop ({@link SliceReceiver}), so they
 * keep being stored while the rank waits to send.
 */
@SuppressWarnings("try") // close waits for the neighbours (RingLink.close), so it may be interrupted
final class TcpRingLink implements RingLink {

    /** The most frames written and not yet taken by the socket. */
    private static final int IN_FLIGHT = 16;

    private final LinkWaiter waiter;
    private final DisposableServer server;
    private final SliceReceiver<ByteBuf> fromLeft;
    private final Duration patience;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicReference<Throwable> writeFailure = new AtomicReference<>();
    private Connection toRight;

    private TcpRingLink(final LinkWaiter waiter, final DisposableServer server, final SliceReceiver<ByteBuf> fromLeft,
                        final Duration patience) {
        this.waiter = waiter;
        this.server = server;
        this.fromLeft = fromLeft;
        this.patience = patience;
    }

    /**
     * Makes a ring of {@code ranks} links in this JVM: serves each, then connects each to its right neighbour and
     * waits until every server has its left neighbour's connection.
     *
     * @param sliceBytes the largest slice
     * @param patience   the longest to wait for a connection, and then for any one step of a link
     * @return the links, by rank
     */
    static TcpRingLink[] ring(final int ranks, final int sliceBytes, final Duration patience) {
        final TcpRingLink[] links = new TcpRingLink[ranks];
        try {
            for (int rank = 0; rank < ranks; rank++) {
                links[rank] = serve(sliceBytes, patience);
            }
            for (int rank = 0; rank < ranks; rank++) {
                links[rank].toRight = TcpClient.create().host("127.0.0.1").port(links[(rank + 1) % ranks].server.port())
                    .option(ChannelOption.TCP_NODELAY, true).connectNow(patience);
            }
            for (final TcpRingLink link : links) {
                link.fromLeft.whenSubscribed().block(patience);
            }
            return links;
        } catch (final RuntimeException ex) {
            for (final TcpRingLink link : links) {
                if (link != null) {
                    link.dispose();
                }
            }
            throw ex;
        }
    }

    private static TcpRingLink serve(final int sliceBytes, final Duration patience) {
        final LinkWaiter waiter = new LinkWaiter(patience);
        final SliceReceiver<ByteBuf> receiver = new SliceReceiver<>(waiter,
            frame -> MemorySegment.ofBuffer(frame.nioBuffer(frame.readerIndex(), frame.readableBytes())));
        final DisposableServer server = TcpServer.create().host("127.0.0.1").port(0)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .doOnConnection(connection -> connection.addHandlerLast("frames",
                new LengthFieldBasedFrameDecoder(sliceBytes + Integer.BYTES, 0, Integer.BYTES, 0, Integer.BYTES)))
            .handle((in, out) -> {
                in.receive().subscribe(receiver);
                return receiver.whenEnded();
            })
            .bindNow(patience);
        return new TcpRingLink(waiter, server, receiver, patience);
    }

    @Override
    public void send(final float[] source, final int offset, final int count) throws InterruptedException {
        waiter.await(() -> pending.get() < IN_FLIGHT, this::failure, () -> "room for a slice at the right neighbour");
        final Channel channel = toRight.channel();
        final int length = count * Float.BYTES;
        final ByteBuf frame = channel.alloc().directBuffer(Integer.BYTES + length);
        frame.writeInt(length);
        FloatCopies.write(source, offset, count, MemorySegment.ofBuffer(frame.nioBuffer(Integer.BYTES, length)));
        frame.writerIndex(Integer.BYTES + length);
        pending.incrementAndGet();
        channel.writeAndFlush(frame).addListener(written -> {
            if (!written.isSuccess()) {
                writeFailure.compareAndSet(null, written.cause());
            }
            pending.decrementAndGet();
            waiter.wake();
        });
    }

    @Override
    public void awaitSent() throws InterruptedException {
        waiter.await(() -> pending.get() == 0, this::failure,
            () -> "the socket to take " + pending.get() + " frames");
    }

    @Override
    public long expect(final float[] target, final float[] addend, final int offset, final int count) {
        return fromLeft.expect(target, addend, offset, count);
    }

    @Override
    public void awaitReceived(final long slice) throws InterruptedException {
        waiter.await(() -> fromLeft.stored() >= slice, this::failure,
            () -> "slice " + slice + " from the left neighbour (" + fromLeft.stored() + " in)");
    }

    /**
     * Closes the connection to the right once every frame was written (the right neighbour reads them before the
     * end), waits for the left neighbour to close its own, and lets the server go.
     */
    @Override
    public void close() {
        try {
            awaitSent();
            toRight.dispose();
            waiter.await(() -> fromLeft.completed() || fromLeft.failure() != null, () -> null,
                () -> "the end of the left neighbour's stream");
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            dispose();
        }
    }

    private void dispose() {
        if (toRight != null) {
            toRight.dispose();
        }
        server.disposeNow(patience);
    }

    private Throwable failure() {
        final Throwable written = writeFailure.get();
        return written != null ? written : fromLeft.failure();
    }
}
