package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import org.agrona.DirectBuffer;
import reactor.core.publisher.Flux;

/**
 * The messages a peer sends on a connection, as a {@link Flux}. Only what the subscriber requests is delivered, and
 * its {@code request(n)} is the credit the peer's sender gets: a slow subscriber slows the remote producer, and
 * nothing is dropped. One subscriber per connection.
 */
public interface Inbound {

    /**
     * @param codec decodes each message from its bytes in the receive ring
     * @return the messages, decoded; the Flux ends when the peer's send completes, fails with
     * {@link RdmaStreamException} when the peer's send failed, and with {@link RdmaConnectionException} when the
     * connection ends first
     */
    <T> Flux<T> receive(Codec<T> codec);

    /**
     * Like {@link #receive(Codec)}, with the codec the connection's {@link io.rdmareactive.codec.CodecRegistry}
     * (set with {@code RdmaClient.codecs(...)} / {@code RdmaServer.codecs(...)}; the built-ins by default) has for
     * {@code type}: {@code inbound.receive(Order.class)}.
     *
     * @param type the type of the messages
     * @return the messages, decoded
     * @throws io.rdmareactive.codec.NoSuchCodecException at once, naming the type, if the registry has no codec for it
     */
    <T> Flux<T> receive(Class<T> type);

    /**
     * The zero-copy form: each message is a read-only view of its bytes in the receive ring (or of a reassembly
     * buffer, for a message larger than a frame), valid only until {@code onNext} returns; copy what must outlive it.
     * The subscriber gets the same view object for every message, rewrapped each time (so receiving allocates
     * nothing): a reference kept after {@code onNext} returns shows a later message, or memory already returned to
     * the sender, never the message it was handed with. Operators that hold elements ({@code buffer}, {@code collect},
     * {@code publishOn}'s queue) must get copies ({@code map} to a copy first).
     *
     * @return the messages as views
     */
    Flux<DirectBuffer> receiveViews();

    /**
     * @return the connection this stream belongs to: a handler uses it to register memory for its peer
     *     ({@link Connection#registerRegion}) or to reach the peer's ({@link Connection#remoteRegion})
     */
    Connection connection();
}
