package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;

/**
 * {@link StreamChannel#receive}'s {@code Flux}: its one subscriber becomes the reader of the channel's current use,
 * through an inbound stream made at subscription; a second subscriber gets an error. No operator chain.
 *
 * @param <T> what the codec decodes
 */
final class ChannelReceive<T> extends Flux<T> {

    private final StreamChannel channel;
    private final Codec<T> codec;

    ChannelReceive(final StreamChannel channel, final Codec<T> codec) {
        this.channel = channel;
        this.codec = codec;
    }

    @Override
    public void subscribe(final CoreSubscriber<? super T> actual) {
        channel.subscribeInbound(codec, actual);
    }
}
