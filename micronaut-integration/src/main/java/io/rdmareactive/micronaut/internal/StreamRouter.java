package io.rdmareactive.micronaut.internal;

import io.rdmareactive.Inbound;
import io.rdmareactive.Outbound;
import io.rdmareactive.StreamHandler;
import io.rdmareactive.StreamKind;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import io.rdmareactive.micronaut.RdmaStreamInfo;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The stream handler of one server: reads each stream's first message to learn its channel, hands the stream to
 * that channel's {@link ListenerRoute}, and sends the route's answers back. A stream that names no channel this
 * server serves, or whose envelope is garbled, ends with an error that says so (the client's call fails with it);
 * the connection and the other streams go on.
 */
final class StreamRouter implements StreamHandler {

    private final String server;
    private final String address;
    private final Map<String, ListenerRoute> routes;
    private final AtomicInteger active = new AtomicInteger();

    StreamRouter(final String server, final String address, final Map<String, ListenerRoute> routes) {
        this.server = server;
        this.address = address;
        this.routes = Map.copyOf(routes);
    }

    /** @return streams being served now */
    int active() {
        return active.get();
    }

    @Override
    public Publisher<Void> handle(final StreamKind kind, final Inbound inbound, final Outbound outbound) {
        final StreamDecoder decoder = new StreamDecoder(this::route);
        final Flux<Object> bodies = inbound.receiveViews().map(decoder::decode);
        final Flux<Object> answers = bodies.switchOnFirst((first, stream) -> {
            final ListenerRoute route = decoder.route();
            if (route == null) {
                return stream; // the first signal was an error or the end: pass it on
            }
            final RdmaStreamInfo info = new RdmaStreamInfo(server, address, route.channel(), kind, decoder.headers());
            return route.serve(kind, stream, info);
        });
        if (kind == StreamKind.FIRE_AND_FORGET) {
            return Mono.defer(() -> {
                active.incrementAndGet();
                return detached(answers.then().doFinally(signal -> active.decrementAndGet()));
            });
        }
        return Mono.defer(() -> {
            active.incrementAndGet();
            return outbound.send(answers, new AnswerCodec(decoder));
        }).doOnTerminate(active::decrementAndGet).doOnCancel(active::decrementAndGet);
    }

    /**
     * A fire-and-forget call is done for the client once its message is sent, and a client that stops gracefully
     * closes its connection as soon as its calls are done; the listener may not even have started then. So the
     * listener's call runs to its end whatever happens to the connection: the stream's end (the peer's close, or
     * this side's) does not cancel it. The stream (and the credit it stands for) is still held until the call ends,
     * so a fast client cannot pile up more calls than the server has streams.
     */
    private static Mono<Void> detached(final Mono<Void> call) {
        final CompletableFuture<Void> done = call.toFuture();
        return Mono.fromFuture(done, true);
    }

    private ListenerRoute route(final String channel) {
        final ListenerRoute route = routes.get(channel);
        if (route == null) {
            throw new IllegalArgumentException("server '" + server + "' (" + address + ") has no @RdmaChannel(\""
                + channel + "\"); it serves " + routes.keySet());
        }
        return route;
    }

    /** Encodes answers with the codec of the route the stream's first message named. */
    private static final class AnswerCodec implements Codec<Object> {
        private final StreamDecoder decoder;

        AnswerCodec(final StreamDecoder decoder) {
            this.decoder = decoder;
        }

        @SuppressWarnings("unchecked")
        private Codec<Object> codec() {
            final ListenerRoute route = decoder.route();
            if (route == null || route.answerCodec() == null) {
                throw new CodecException("rdma-answer", "the listener answered, but its method declares no answer type");
            }
            return (Codec<Object>) route.answerCodec();
        }

        @Override
        public String name() {
            return "rdma-answer";
        }

        @Override
        public int encodedLength(final Object value) {
            return codec().encodedLength(value);
        }

        @Override
        public int encode(final Object value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
            return codec().encode(value, buffer, offset, maxLength);
        }

        @Override
        public Object decode(final DirectBuffer buffer, final int offset, final int length) {
            return codec().decode(buffer, offset, length);
        }
    }
}
