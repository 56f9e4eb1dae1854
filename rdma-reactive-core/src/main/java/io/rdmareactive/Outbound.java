package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/** Sends messages to the peer of a connection. */
public interface Outbound {

    /**
     * Sends the elements of a publisher, each encoded by the codec straight into registered memory. The publisher is
     * asked only for as many elements as the peer's subscriber has requested (never unbounded demand), so a slow
     * remote subscriber slows it down. One send at a time per connection.
     *
     * <p>An element is read when it is encoded, which may be after its {@code onNext} returned: when the ring is full it
     * waits for credit, and a message larger than a frame is copied out frame by frame as the ring frees, straight from
     * the element when its codec has the bytes ({@link Codec#encodedBytes}, as {@code DIRECT_BUFFER} does). So a
     * mutable element (a buffer) must not be changed or reused once emitted; emit a fresh one, or one from a pool
     * larger than the elements a send can hold (at most 64 requested or waiting, plus the one being fragmented).
     *
     * @return completes once every element and the end of the stream are in the send ring (on shared memory, that
     * is the peer's receive ring; disposing the connection then waits, up to the liveness timeout, until they reached
     * the peer's memory, and {@code onDispose()} fails, counting them, if some did not); fails when the publisher
     * fails (the peer's Flux fails too), the connection ends first, or an element cannot be encoded; cancelling it
     * cancels the publisher, and the stream's direction ends with COMPLETE
     */
    <T> Mono<Void> send(Publisher<? extends T> messages, Codec<T> codec);

    /**
     * Like {@link #send(Publisher, Codec)}, with the codec the connection's
     * {@link io.rdmareactive.codec.CodecRegistry} has for {@code type}: {@code outbound.send(orders, Order.class)}.
     *
     * @param messages the messages
     * @param type the type the codec is looked up for (a codec for a supertype serves subtypes)
     * @return as {@link #send(Publisher, Codec)}
     * @throws io.rdmareactive.codec.NoSuchCodecException at once, naming the type, if the registry has no codec for it
     */
    <T> Mono<Void> send(Publisher<? extends T> messages, Class<T> type);

    /** @return the connection this stream belongs to */
    Connection connection();
}
