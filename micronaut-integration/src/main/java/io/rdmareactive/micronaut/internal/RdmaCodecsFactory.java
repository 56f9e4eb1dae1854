package io.rdmareactive.micronaut.internal;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.rdmareactive.codec.CodecRegistry;
import jakarta.inject.Singleton;

/**
 * The codecs listeners and clients pick by type: the built-ins, unless the application has a {@link CodecRegistry}
 * bean of its own (e.g. {@code CodecRegistry.defaults().withFallback(JsonCodec.factory(mapper))}).
 */
@Factory
public class RdmaCodecsFactory {

    /** @return the built-in codecs */
    @Singleton
    @Requires(missingBeans = CodecRegistry.class)
    public CodecRegistry defaultCodecs() {
        return CodecRegistry.defaults();
    }
}
