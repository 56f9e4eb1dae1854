package io.rdmareactive.codec.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import io.rdmareactive.codec.CodecRanges;
import java.io.IOException;
import java.util.Objects;
import java.util.function.Function;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.io.DirectBufferInputStream;
import org.agrona.io.ExpandableDirectBufferOutputStream;

/**
 * Values of any type Jackson can bind, as UTF-8 JSON (no length prefix: the frame carries the length).
 *
 * <h2>Why encode serializes once and copies once</h2>
 * The {@link Codec} contract wants the exact length before the claim, so that one claim of exactly the payload's
 * size suffices; JSON's length is only known once it has been written. Serializing twice (once to count, once into
 * the ring) would double the dear part, so {@link #encodedLength(Object)} serializes the value through Jackson's
 * generator into this thread's reusable off-heap scratch buffer (an Agrona {@link ExpandableDirectBufferOutputStream},
 * no per-message {@code byte[]}) and remembers it; {@link #encode encode} then copies those bytes into the claimed
 * range with one bulk copy. If encode is called for a value that is not the one this thread last measured, it
 * serializes it first, so calling encode alone is correct too, just not cheaper. The value must not change between
 * the two calls (as the contract says for every codec). A scratch buffer that grew past 1 MiB for a large message
 * is dropped after use, so a thread keeps at most about that much.
 *
 * <h2>Decode</h2>
 * Jackson reads straight from the range: from the backing array when the buffer has one, otherwise through a
 * per-thread {@link DirectBufferInputStream} over exactly the range. Input that is not one JSON value of the type
 * (malformed or truncated JSON, trailing tokens, a JSON {@code null}, a value Jackson cannot bind, nesting deeper than
 * Jackson's limits) is refused with a {@link CodecException} naming the codec and the range; the decoded value owns
 * its data.
 *
 * <p>Thread safe, as Jackson's {@link ObjectMapper} is once configured: configure the mapper before making codecs of
 * it. Allocation: Jackson's generator, parser and the decoded objects; these are for convenience, not nanoseconds.
 *
 * @param <T> the type of the values
 */
public final class JsonCodec<T> implements Codec<T> {

    /** A scratch buffer larger than this after an encode is dropped, not kept for the thread's next message. */
    static final int MAX_RETAINED_SCRATCH = 1 << 20;

    private static final int INITIAL_SCRATCH = 4096;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private final String name;
    private final ObjectWriter writer;
    private final ObjectReader reader;

    private JsonCodec(final String name, final ObjectWriter writer, final ObjectReader reader) {
        this.name = name;
        this.writer = writer;
        this.reader = reader;
    }

    /**
     * A JSON codec for {@code type}, written and read with {@code mapper}'s configuration (and, whatever that says,
     * refusing trailing tokens after the value).
     *
     * @param mapper the configured mapper; not to be reconfigured afterwards
     * @param type the type of the values
     * @param <T> the type
     * @return a codec safe to share between threads
     */
    public static <T> JsonCodec<T> of(final ObjectMapper mapper, final Class<T> type) {
        Objects.requireNonNull(type, "type");
        return of(mapper, Objects.requireNonNull(mapper, "mapper").constructType(type), type.getSimpleName());
    }

    /**
     * A JSON codec for a generic type such as {@code List<Order>}: {@code mapper.getTypeFactory()
     * .constructCollectionType(List.class, Order.class)}.
     *
     * @param mapper the configured mapper; not to be reconfigured afterwards
     * @param type the type of the values
     * @param <T> the type
     * @return a codec safe to share between threads
     */
    public static <T> JsonCodec<T> of(final ObjectMapper mapper, final JavaType type) {
        return of(mapper, type, Objects.requireNonNull(type, "type").toCanonical());
    }

    private static <T> JsonCodec<T> of(final ObjectMapper mapper, final JavaType type, final String typeName) {
        Objects.requireNonNull(mapper, "mapper");
        return new JsonCodec<>("json:" + typeName, mapper.writerFor(type),
            mapper.readerFor(type).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));
    }

    /**
     * A fallback for {@link io.rdmareactive.codec.CodecRegistry#withFallback(Function)} that serves every type with
     * no codec of its own as JSON: {@code CodecRegistry.defaults().withFallback(JsonCodec.factory(mapper))}.
     *
     * @param mapper the configured mapper; not to be reconfigured afterwards
     * @return makes a JSON codec for any type
     */
    public static Function<Class<?>, Codec<?>> factory(final ObjectMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return type -> of(mapper, type);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int encodedLength(final T value) {
        return serialize(Objects.requireNonNull(value, "value"), SCRATCH.get());
    }

    @Override
    public int encode(final T value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        Objects.requireNonNull(value, "value");
        CodecRanges.checkEncodeRange(name, buffer, offset, maxLength);
        final Scratch scratch = SCRATCH.get();
        try {
            final int length = scratch.value == value && scratch.codec == this ? scratch.length
                : serialize(value, scratch);
            if (length > maxLength) {
                throw CodecRanges.doesNotFit(name, length, offset, maxLength);
            }
            buffer.putBytes(offset, scratch.out.buffer(), 0, length);
            return length;
        } finally {
            scratch.forget();
        }
    }

    @Override
    public T decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(name, buffer, offset, length);
        final T value;
        try {
            final byte[] array = buffer.byteArray();
            if (array != null) {
                value = reader.readValue(array, buffer.wrapAdjustment() + offset, length); // in place, no copy
            } else {
                final DirectBufferInputStream in = SCRATCH.get().in;
                in.wrap(buffer, offset, length);
                try {
                    value = reader.readValue(in);
                } finally {
                    in.wrap(EMPTY);
                }
            }
        } catch (final IOException | RuntimeException ex) {
            throw new CodecException(name, "not a JSON value of the type in " + CodecRanges.range(offset, length)
                + ": " + ex.getMessage(), ex);
        }
        if (value == null) {
            throw new CodecException(name, "JSON null in " + CodecRanges.range(offset, length)
                + " is no value to deliver");
        }
        return value;
    }

    @Override
    public boolean decodesToView() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }

    private int serialize(final T value, final Scratch scratch) {
        scratch.forget();
        final ExpandableDirectBufferOutputStream out = scratch.out;
        out.wrap(scratch.buffer);
        try {
            writer.writeValue(out, value);
        } catch (final IOException | RuntimeException ex) {
            scratch.forget();
            throw new CodecException(name, "cannot write " + value.getClass().getName() + " as JSON: "
                + ex.getMessage(), ex);
        }
        scratch.value = value;
        scratch.codec = this;
        scratch.length = out.position();
        return scratch.length;
    }

    private static final DirectBuffer EMPTY = new org.agrona.concurrent.UnsafeBuffer(new byte[0]);

    /** One thread's scratch: the last value it serialized, its bytes, and a stream to read ranges with. */
    private static final class Scratch {
        ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(INITIAL_SCRATCH);
        final ExpandableDirectBufferOutputStream out = new ExpandableDirectBufferOutputStream();
        final DirectBufferInputStream in = new DirectBufferInputStream();
        Object value;
        JsonCodec<?> codec;
        int length;

        void forget() {
            value = null;
            codec = null;
            length = 0;
            if (buffer.capacity() > MAX_RETAINED_SCRATCH) {
                buffer = new ExpandableDirectByteBuffer(INITIAL_SCRATCH);
            }
        }
    }
}
