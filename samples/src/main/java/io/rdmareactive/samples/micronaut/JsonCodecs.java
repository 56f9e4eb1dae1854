package io.rdmareactive.samples.micronaut;

// tag::codecs[]
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.annotation.Factory;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.codec.json.JsonCodec;
import jakarta.inject.Singleton;

/** Both services' codecs: the built-ins, and JSON for the records (Order, Quote). */
@Factory
public class JsonCodecs {

    /** @return the codecs {@code @RdmaListener} and {@code @RdmaClient} methods pick by type */
    @Singleton
    CodecRegistry codecs() {
        return CodecRegistry.defaults().withFallback(JsonCodec.factory(new ObjectMapper()));
    }
}
// end::codecs[]
