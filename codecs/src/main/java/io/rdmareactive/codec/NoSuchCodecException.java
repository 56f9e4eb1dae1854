package io.rdmareactive.codec;

import java.util.Objects;

/**
 * A {@link CodecRegistry} has no codec for a type, nor for any of its supertypes. The message names the type and
 * says how to register one. A configuration error, raised where the codec is looked up (when a stream is set up),
 * never per message.
 */
public class NoSuchCodecException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The type that has no codec. */
    private final transient Class<?> type;

    /**
     * Creates an exception for a type that has no codec.
     *
     * @param type the type looked up
     */
    public NoSuchCodecException(final Class<?> type) {
        super("no codec for " + Objects.requireNonNull(type, "type").getTypeName()
            + " (nor for any of its supertypes); register one with CodecRegistry.defaults().with("
            + type.getSimpleName() + ".class, codec) and configure that registry, add a fallback such as "
            + "JsonCodec.factory(mapper) with withFallback(...), or pass the Codec explicitly");
        this.type = type;
    }

    /**
     * The type that has no codec.
     *
     * @return the type looked up
     */
    public Class<?> type() {
        return type;
    }
}
