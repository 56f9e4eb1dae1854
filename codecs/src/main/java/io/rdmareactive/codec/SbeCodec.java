package io.rdmareactive.codec;

import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.sbe.MessageDecoderFlyweight;
import org.agrona.sbe.MessageEncoderFlyweight;

/**
 * A codec for messages described with SBE (Simple Binary Encoding): a generic adapter over the encoder and decoder
 * flyweights that {@code sbe-tool} generates for your schema, so values are written field by field straight into
 * the claimed ring range and read in place on the other side. Only Agrona is needed at run time; generate the
 * flyweights with {@code -Dsbe.java.generate.interfaces=true} so they implement Agrona's
 * {@link MessageEncoderFlyweight} and {@link MessageDecoderFlyweight}.
 *
 * <pre>{@code
 * Codec<Quote> quotes = SbeCodec.of("quote", QuoteEncoder::new, QuoteDecoder::new,
 *     (quote, encoder) -> encoder.instrumentId(quote.id()).bid(quote.bid()).ask(quote.ask()),
 *     decoder -> new Quote(decoder.instrumentId(), decoder.bid(), decoder.ask()));
 *
 * // zero-copy receive: each element is this thread's decoder, wrapped over the message, valid until onNext returns
 * Codec<QuoteDecoder> views = SbeCodec.views("quote-view", QuoteEncoder::new, QuoteDecoder::new,
 *     (decoder, encoder) -> encoder.instrumentId(decoder.instrumentId()).bid(decoder.bid()).ask(decoder.ask()));
 * }</pre>
 *
 * <h2>Encoding</h2>
 * A message is SBE's standard 8-byte header (block length, template id, schema id, version: four little-endian
 * {@code uint16}, taken from the flyweight) followed by the message body the writer fills in. The frame carries the
 * length, so nothing else is added. The length is exact before the claim: the header, the flyweight's block length,
 * and for messages with groups or variable-length data whatever {@link #withVariableLength(ToIntFunction)} says the
 * value adds (group headers, entries, data length fields and data). After the writer ran, the codec checks that it
 * wrote exactly that much, and throws a {@link CodecException} naming both numbers if not. The writer writes through
 * a view of exactly the claimed range, so a writer that goes further fails on Agrona's bounds check (reported as a
 * {@link CodecException}) instead of writing past the claim; it may leave the range partly written (the caller
 * aborts the claim). Schemas must use the standard header and little-endian byte order (SBE's defaults).
 *
 * <h2>Decoding</h2>
 * Decode reads the header, refuses a message of another template or schema, or whose block does not fit the range,
 * and wraps the decoder over a view of exactly the range with the acting block length and version from the header,
 * so that messages of older and newer schema versions decode as SBE's evolution rules say. The reader then builds a
 * value; anything it trips over in hostile bytes (a group count or data length pointing past the range, an unknown
 * enum value) surfaces as a {@link CodecException}, never as a read past the range: every read goes through the
 * exact view, which Agrona bounds-checks (keep {@code agrona.disable.bounds.checks} unset for traffic from peers you
 * do not trust). Before the reader runs, the codec walks every group and data field
 * (reading only their lengths, through the flyweight's {@code sbeDecodedLength()}) and refuses a message whose
 * groups or data end outside the range: so a hostile data length is refused before a generated accessor sizes an
 * array by it, and a {@linkplain #views view codec} hands out only decoders whose fields lie inside the range.
 *
 * <h2>Threads and allocation</h2>
 * Each thread gets its own flyweights and views (a {@link ThreadLocal}, created on its first use), so one codec may be
 * shared by every stream and registered in a {@link CodecRegistry}. Encode and the view decode allocate nothing in
 * steady state; a value decode allocates what the reader allocates. The decoder a view codec returns is reused by the
 * next decode on the same thread: like every view, it is valid only until {@code onNext} returns.
 *
 * @param <T> the values encoded and decoded
 * @param <E> the generated encoder flyweight
 * @param <D> the generated decoder flyweight
 */
public final class SbeCodec<T, E extends MessageEncoderFlyweight, D extends MessageDecoderFlyweight>
    implements Codec<T> {

    /** SBE's standard message header: block length, template id, schema id, version, each a {@code uint16}. */
    public static final int HEADER_LENGTH = 8;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final byte[] NOTHING = new byte[0];

    private final String name;
    private final Supplier<? extends E> encoders;
    private final Supplier<? extends D> decoders;
    private final BiConsumer<? super T, ? super E> writer;
    private final Function<? super D, ? extends T> reader;
    private final ToIntFunction<? super T> variableLength;
    private final boolean views;
    private final int blockLength;
    private final int templateId;
    private final int schemaId;
    private final int schemaVersion;
    private final ThreadLocal<Flyweights<E, D>> flyweights;

    private SbeCodec(final String name, final Supplier<? extends E> encoders, final Supplier<? extends D> decoders,
                     final BiConsumer<? super T, ? super E> writer, final Function<? super D, ? extends T> reader,
                     final ToIntFunction<? super T> variableLength, final boolean views) {
        this.name = Objects.requireNonNull(name, "name");
        this.encoders = Objects.requireNonNull(encoders, "encoders");
        this.decoders = Objects.requireNonNull(decoders, "decoders");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.variableLength = variableLength;
        this.views = views;
        final E encoder = Objects.requireNonNull(encoders.get(), "the encoder supplier returned null");
        final D decoder = Objects.requireNonNull(decoders.get(), "the decoder supplier returned null");
        if (encoder.sbeTemplateId() != decoder.sbeTemplateId() || encoder.sbeSchemaId() != decoder.sbeSchemaId()) {
            throw new IllegalArgumentException(name + ": the encoder (template " + encoder.sbeTemplateId()
                + " of schema " + encoder.sbeSchemaId() + ") and the decoder (template " + decoder.sbeTemplateId()
                + " of schema " + decoder.sbeSchemaId() + ") are for different messages");
        }
        this.blockLength = encoder.sbeBlockLength();
        this.templateId = encoder.sbeTemplateId();
        this.schemaId = encoder.sbeSchemaId();
        this.schemaVersion = encoder.sbeSchemaVersion();
        this.flyweights = ThreadLocal.withInitial(() -> new Flyweights<>(this.encoders.get(), this.decoders.get()));
    }

    /**
     * A codec that writes values of type {@code T} through the encoder and builds them again from the decoder. For
     * a message with groups or variable-length data, add {@link #withVariableLength(ToIntFunction)}.
     *
     * @param name a short name for messages and metrics
     * @param encoders makes the generated encoder flyweight (one per thread), e.g. {@code QuoteEncoder::new}
     * @param decoders makes the generated decoder flyweight (one per thread), e.g. {@code QuoteDecoder::new}
     * @param writer writes a value's fields into the encoder, which is wrapped just after the header
     * @param reader builds a value from the decoder; it must not keep the decoder, which is reused
     * @param <T> the values
     * @param <E> the encoder flyweight
     * @param <D> the decoder flyweight
     * @return a codec safe to share between threads
     */
    public static <T, E extends MessageEncoderFlyweight, D extends MessageDecoderFlyweight> SbeCodec<T, E, D> of(
        final String name, final Supplier<? extends E> encoders, final Supplier<? extends D> decoders,
        final BiConsumer<? super T, ? super E> writer, final Function<? super D, ? extends T> reader) {
        return new SbeCodec<>(name, encoders, decoders, writer, reader, null, false);
    }

    /**
     * A zero-copy codec whose values are the decoder flyweights themselves: decode returns this thread's decoder
     * wrapped over the message ({@link #decodesToView()} is {@code true}; valid until the next decode on the same
     * thread, and only while the range is), after checking that every group and data field lies inside the range.
     * Encode copies a decoder's fields into the encoder with {@code copier}, which lets a service forward what it
     * received.
     *
     * @param name a short name for messages and metrics
     * @param encoders makes the generated encoder flyweight (one per thread)
     * @param decoders makes the generated decoder flyweight (one per thread)
     * @param copier writes the fields a decoder reads into the encoder
     * @param <E> the encoder flyweight
     * @param <D> the decoder flyweight
     * @return a codec safe to share between threads
     */
    public static <E extends MessageEncoderFlyweight, D extends MessageDecoderFlyweight> SbeCodec<D, E, D> views(
        final String name, final Supplier<? extends E> encoders, final Supplier<? extends D> decoders,
        final BiConsumer<? super D, ? super E> copier) {
        return new SbeCodec<>(name, encoders, decoders, copier, Function.identity(), null, true);
    }

    /**
     * This codec for a message with groups or variable-length data: {@code bytesBeyondBlock} gives, for a value, the
     * exact number of bytes the writer writes after the fixed block (each group's header and entries, each data
     * field's length prefix and bytes), so that the encoded length is exact before the claim.
     *
     * @param bytesBeyondBlock the bytes after the block, for a value; at least 0
     * @return a new codec, otherwise like this one
     */
    public SbeCodec<T, E, D> withVariableLength(final ToIntFunction<? super T> bytesBeyondBlock) {
        return new SbeCodec<>(name, encoders, decoders, writer, reader,
            Objects.requireNonNull(bytesBeyondBlock, "bytesBeyondBlock"), views);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int encodedLength(final T value) {
        Objects.requireNonNull(value, "value");
        final long beyond = variableLength == null ? 0 : variableLength.applyAsInt(value);
        if (beyond < 0) {
            throw new CodecException(name, "the variable-length function returned " + beyond + ", not a length");
        }
        final long length = HEADER_LENGTH + blockLength + beyond;
        if (length > Integer.MAX_VALUE) {
            throw new CodecException(name, "encoding needs " + length + " bytes, more than a buffer can hold");
        }
        return (int) length;
    }

    @Override
    public int encode(final T value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        final int length = encodedLength(value);
        CodecRanges.checkEncodeRange(name, buffer, offset, maxLength);
        if (length > maxLength) {
            throw CodecRanges.doesNotFit(name, length, offset, maxLength);
        }
        if (buffer.isExpandable()) {
            buffer.checkLimit(offset + length); // grow it now: the view below has a fixed capacity
        }
        final Flyweights<E, D> own = flyweights.get();
        final UnsafeBuffer view = own.encodeView;
        final int written;
        view.wrap(buffer, offset, length);
        try {
            view.putShort(0, (short) blockLength, ORDER);
            view.putShort(2, (short) templateId, ORDER);
            view.putShort(4, (short) schemaId, ORDER);
            view.putShort(6, (short) schemaVersion, ORDER);
            final E encoder = own.encoder;
            encoder.wrap(view, HEADER_LENGTH);
            writer.accept(value, encoder);
            written = HEADER_LENGTH + encoder.encodedLength();
        } catch (final IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException ex) {
            throw new CodecException(name, "the writer failed or went past the " + length + " bytes that "
                + "encodedLength promised in " + CodecRanges.range(offset, length) + ": " + ex.getMessage(), ex);
        } finally {
            view.wrap(NOTHING); // keep no reference to the caller's buffer
        }
        if (written != length) {
            throw new CodecException(name, "the writer wrote " + written + " bytes where encodedLength promised "
                + length + " in " + CodecRanges.range(offset, length)
                + ": the variable-length function and the writer disagree");
        }
        return length;
    }

    @Override
    public T decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(name, buffer, offset, length);
        if (length < HEADER_LENGTH) {
            throw new CodecException(name, "an SBE message starts with an " + HEADER_LENGTH + "-byte header, but "
                + CodecRanges.range(offset, length) + " is shorter");
        }
        final Flyweights<E, D> own = flyweights.get();
        final UnsafeBuffer view = own.decodeView;
        view.wrap(buffer, offset, length);
        boolean keepView = false;
        try {
            final int actingBlockLength = view.getShort(0, ORDER) & 0xFFFF;
            final int actualTemplate = view.getShort(2, ORDER) & 0xFFFF;
            final int actualSchema = view.getShort(4, ORDER) & 0xFFFF;
            final int actingVersion = view.getShort(6, ORDER) & 0xFFFF;
            if (actualTemplate != templateId || actualSchema != schemaId) {
                throw new CodecException(name, "expected template " + templateId + " of schema " + schemaId
                    + ", got template " + actualTemplate + " of schema " + actualSchema + " in "
                    + CodecRanges.range(offset, length));
            }
            if (HEADER_LENGTH + actingBlockLength > length) {
                throw new CodecException(name, "block length " + actingBlockLength + " does not fit in "
                    + CodecRanges.range(offset, length) + " after the header");
            }
            final D decoder = own.decoder;
            decoder.wrap(view, HEADER_LENGTH, actingBlockLength, actingVersion);
            final T value;
            try {
                // walk every group and data field first, reading only their lengths: a length that points past
                // the range is refused here, before a reader (or a generated accessor that sizes an array by it)
                // trusts it, and before a subscriber reads a view outside this codec
                final int body = decoder.sbeDecodedLength();
                if (body < actingBlockLength || HEADER_LENGTH + (long) body > length) {
                    throw new CodecException(name, "the groups and data of the message end " + body
                        + " bytes after the header, outside " + CodecRanges.range(offset, length));
                }
                value = reader.apply(decoder);
            } catch (final IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException
                           | NegativeArraySizeException ex) {
                throw new CodecException(name, "not a valid message of template " + templateId + " in "
                    + CodecRanges.range(offset, length) + ": " + ex.getMessage(), ex);
            }
            keepView = views;
            return value;
        } finally {
            if (!keepView) {
                view.wrap(NOTHING); // keep no reference to the caller's buffer
            }
        }
    }

    @Override
    public boolean decodesToView() {
        return views;
    }

    @Override
    public String toString() {
        return name;
    }

    /** One thread's flyweights, and the views of exactly the range that they are wrapped over. */
    private static final class Flyweights<E, D> {
        final E encoder;
        final D decoder;
        final UnsafeBuffer encodeView = new UnsafeBuffer(NOTHING);
        final UnsafeBuffer decodeView = new UnsafeBuffer(NOTHING);

        Flyweights(final E encoder, final D decoder) {
            this.encoder = encoder;
            this.decoder = decoder;
        }
    }
}
