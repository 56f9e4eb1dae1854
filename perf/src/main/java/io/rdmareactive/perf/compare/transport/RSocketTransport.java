package io.rdmareactive.perf.compare.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketConnector;
import io.rsocket.core.RSocketServer;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.ByteBufPayload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reactive peer a team reaches for today: RSocket-java over its TCP transport (Reactor Netty, 127.0.0.1), one
 * {@code requestChannel} per stream. The client's {@link Link#offer} emits into the channel only while RSocket's
 * request-n from the server allows (the credit is RSocket's own, carried in REQUEST_N frames); the server echoes the
 * channel back, or hands each payload to the stream's consumer. Both sides decode frames zero-copy
 * ({@link PayloadDecoder#ZERO_COPY}); a message is copied once into a pooled buffer when offered, as on TCP.
 */
public final class RSocketTransport implements Transport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /**
     * Echoes the client asks for at once, and asks again for half of as they arrive; likewise the messages a consuming
     * server asks for.
     */
    private static final int REPLY_DEMAND = 256;

    @Override
    public String name() {
        return "rsocket-tcp";
    }

    @Override
    public String setup() {
        return "RSocket-java 1.1.5 over its TCP transport (Reactor Netty NIO event loops on 127.0.0.1): one "
            + "requestChannel per stream, the client emitting from its own thread while the server's request-n "
            + "allows (a consuming server requests " + REPLY_DEMAND + " at a time as it takes them); zero-copy frame "
            + "decoding on both sides; echoes requested " + REPLY_DEMAND + " at a time";
    }

    @Override
    public Session open(final SessionSpec spec) {
        final CloseableChannel server = RSocketServer.create(SocketAcceptor.with(new RSocket() {
                @Override
                public Flux<Payload> requestChannel(final Publisher<Payload> payloads) {
                    if (spec.echo()) {
                        return Flux.from(payloads); // each payload goes back as it came; RSocket releases it once sent
                    }
                    // the first payload of a channel names its stream in its metadata: channels open when their
                    // first message goes, in whatever order the clients' threads send them
                    return Flux.from(payloads).switchOnFirst((first, all) -> {
                        final Payload opening = first.get();
                        if (opening == null) {
                            return all.thenMany(Flux.empty());
                        }
                        final PayloadConsumer consumer = new PayloadConsumer(spec.consumers()
                            .apply(opening.sliceMetadata().getInt(0)));
                        // limitRate: the server asks for the channel in batches as its consumer takes them, so
                        // RSocket's REQUEST_N holds a fast client back (then() alone would ask for everything)
                        return all.limitRate(REPLY_DEMAND).doOnNext(consumer::accept).thenMany(Flux.<Payload>empty());
                    });
                }
            }))
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(TIMEOUT);
        final RSocket client;
        try {
            client = RSocketConnector.create().payloadDecoder(PayloadDecoder.ZERO_COPY)
                .connect(TcpClientTransport.create("127.0.0.1", server.address().getPort())).block(TIMEOUT);
        } catch (final RuntimeException ex) {
            server.dispose();
            throw ex;
        }
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Link> links = new ArrayList<>();
        for (int stream = 0; stream < spec.streams(); stream++) {
            final ChannelLink link = new ChannelLink(stream, failure);
            client.requestChannel(link).subscribe(new Replies(spec.echo() ? spec.replies() : null, failure));
            links.add(link);
        }
        return new Session() {
            @Override
            public Link link(final int stream) {
                return links.get(stream);
            }

            @Override
            public void close() {
                for (final Link link : links) {
                    ((ChannelLink) link).complete();
                }
                client.dispose();
                server.dispose();
                server.onClose().block(TIMEOUT);
            }
        };
    }

    @Override
    public void close() {
        // sessions close their sockets; the event loops are Reactor Netty's shared ones
    }

    /**
     * Connects a client to a server whose {@code requestResponse} answers each request with its own bytes, for the
     * request-response workload.
     */
    public Calls calls(final Duration timeout) {
        final CloseableChannel server = RSocketServer.create(SocketAcceptor.forRequestResponse(
                request -> Mono.just(request))) // the request goes back as the answer; RSocket releases it once sent
            .payloadDecoder(PayloadDecoder.ZERO_COPY)
            .bind(TcpServerTransport.create("127.0.0.1", 0))
            .block(timeout);
        try {
            final RSocket client = RSocketConnector.create().payloadDecoder(PayloadDecoder.ZERO_COPY)
                .connect(TcpClientTransport.create("127.0.0.1", server.address().getPort())).block(timeout);
            return new Calls(server, client, timeout);
        } catch (final RuntimeException ex) {
            server.dispose();
            throw ex;
        }
    }

    /** A client and an echoing server of RSocket's request/response: one call per {@link #call}. */
    public static final class Calls implements AutoCloseable {

        private final CloseableChannel server;
        private final RSocket client;
        private final Duration timeout;

        Calls(final CloseableChannel server, final RSocket client, final Duration timeout) {
            this.server = server;
            this.client = client;
            this.timeout = timeout;
        }

        /** @return the answer's bytes (copied out of the frame, which is released) */
        public Mono<byte[]> call(final byte[] request) {
            return client.requestResponse(ByteBufPayload.create(request)).map(answer -> {
                try {
                    final ByteBuf data = answer.sliceData();
                    final byte[] bytes = new byte[data.readableBytes()];
                    data.getBytes(data.readerIndex(), bytes);
                    return bytes;
                } finally {
                    answer.release();
                }
            });
        }

        @Override
        public void close() {
            client.dispose();
            server.dispose();
            server.onClose().block(timeout);
        }
    }

    /**
     * The client's side of one channel: a publisher of the messages offered, which emits only as far as the
     * channel's subscriber (RSocket, on the server's request-n) asked.
     */
    private static final class ChannelLink implements Link, Publisher<Payload>, Subscription {

        private final int stream;
        private final AtomicReference<Throwable> failure;
        private final AtomicLong requested = new AtomicLong();
        private volatile Subscriber<? super Payload> subscriber;
        private volatile boolean cancelled;
        /** The channel's first payload carries the stream's number as its metadata. */
        private boolean opened;

        ChannelLink(final int stream, final AtomicReference<Throwable> failure) {
            this.stream = stream;
            this.failure = failure;
        }

        @Override
        public void subscribe(final Subscriber<? super Payload> actual) {
            subscriber = actual;
            actual.onSubscribe(this);
        }

        @Override
        public void request(final long n) {
            if (n > 0) {
                requested.getAndAccumulate(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE
                    : current + more);
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public boolean offer(final DirectBuffer buffer, final int offset, final int length) {
            final Throwable cause = failure.get();
            if (cause != null) {
                throw new IllegalStateException("the RSocket channel failed: " + cause, cause);
            }
            if (cancelled) {
                throw new IllegalStateException("the RSocket channel was cancelled");
            }
            final Subscriber<? super Payload> actual = subscriber;
            if (actual == null || requested.get() == 0) {
                return false; // RSocket's request-n: no credit
            }
            final ByteBuf data = ByteBufAllocator.DEFAULT.directBuffer(length);
            final byte[] array = buffer.byteArray();
            if (array != null) {
                data.writeBytes(array, buffer.wrapAdjustment() + offset, length);
            } else {
                for (int i = 0; i < length; i++) {
                    data.writeByte(buffer.getByte(offset + i));
                }
            }
            requested.decrementAndGet();
            if (opened) {
                actual.onNext(ByteBufPayload.create(data));
            } else {
                opened = true;
                actual.onNext(ByteBufPayload.create(data, ByteBufAllocator.DEFAULT.buffer(Integer.BYTES)
                    .writeInt(stream)));
            }
            return true;
        }

        @Override
        public int poll() {
            return 0;
        }

        /** The session closes: the channel's outbound completes. */
        void complete() {
            final Subscriber<? super Payload> actual = subscriber;
            if (actual != null && !cancelled) {
                actual.onComplete();
            }
        }
    }

    /** The client's subscriber of a channel's inbound: hands each echo to the session's handler. */
    private static final class Replies implements CoreSubscriber<Payload> {

        private final MessageHandler handler;
        private final AtomicReference<Throwable> failure;
        private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        private Subscription subscription;
        private int sinceRequest;

        Replies(final MessageHandler handler, final AtomicReference<Throwable> failure) {
            this.handler = handler;
            this.failure = failure;
        }

        @Override
        public void onSubscribe(final Subscription s) {
            subscription = s;
            s.request(REPLY_DEMAND);
        }

        @Override
        public void onNext(final Payload payload) {
            try {
                if (handler != null) {
                    final ByteBuf data = payload.sliceData();
                    wrap(view, data);
                    handler.onMessage(view, 0, data.readableBytes());
                }
            } finally {
                payload.release();
            }
            if (++sinceRequest == REPLY_DEMAND / 2) {
                sinceRequest = 0;
                subscription.request(REPLY_DEMAND / 2);
            }
        }

        @Override
        public void onError(final Throwable error) {
            failure.compareAndSet(null, error);
        }

        @Override
        public void onComplete() {
        }
    }

    /** Hands each payload the server receives to a consumer, as a view, and releases it. */
    private static final class PayloadConsumer {

        private final MessageHandler handler;
        private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

        PayloadConsumer(final MessageHandler handler) {
            this.handler = handler;
        }

        void accept(final Payload payload) {
            try {
                final ByteBuf data = payload.sliceData();
                wrap(view, data);
                handler.onMessage(view, 0, data.readableBytes());
            } finally {
                payload.release();
            }
        }
    }

    /** Points {@code view} at the readable bytes of {@code data}. */
    private static void wrap(final UnsafeBuffer view, final ByteBuf data) {
        if (data.hasMemoryAddress()) {
            view.wrap(data.memoryAddress() + data.readerIndex(), data.readableBytes());
        } else if (data.hasArray()) {
            view.wrap(data.array(), data.arrayOffset() + data.readerIndex(), data.readableBytes());
        } else {
            view.wrap(data.nioBuffer(data.readerIndex(), data.readableBytes()));
        }
    }
}
