package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A connection between two processes: messages in through {@link #inbound()}, out through {@link #outbound()}.
 * {@link #dispose()} closes it and frees its rings, registrations and files.
 */
public interface Connection extends Disposable {

    /** @return the messages the peer sends */
    Inbound inbound();

    /** @return where to send messages to the peer */
    Outbound outbound();

    /** @return who the peer is, for logs */
    String peer();

    /** @return a Mono that completes when the connection is closed, or fails with why it ended */
    Mono<Void> onDispose();

    /**
     * Sends one message to the peer's {@link StreamHandler} on a stream of its own, expecting no answer.
     *
     * @return completes when the message was sent
     */
    <Q> Mono<Void> fireAndForget(Q request, Codec<Q> codec);

    /**
     * Sends one message and waits for one answer on a stream of their own; cancelling tells the peer to stop.
     *
     * @return the answer, or empty if the handler answered nothing; a {@link java.util.concurrent.TimeoutException}
     * if none came within the client's request timeout (default 30 s)
     */
    <Q, R> Mono<R> requestResponse(Q request, Codec<Q> requestCodec, Codec<R> responseCodec);

    /**
     * Sends one message and receives a stream of answers, as many as this side requests.
     *
     * @return the answers
     */
    <Q, R> Flux<R> requestStream(Q request, Codec<Q> requestCodec, Codec<R> responseCodec);

    /**
     * Streams messages each way on a stream of their own, each direction with its own back-pressure.
     *
     * @return the answers
     */
    <Q, R> Flux<R> requestChannel(Publisher<? extends Q> requests, Codec<Q> requestCodec, Codec<R> responseCodec);
}
