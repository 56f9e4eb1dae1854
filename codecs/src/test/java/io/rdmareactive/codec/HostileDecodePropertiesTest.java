package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Bytes from a peer are untrusted: whatever the bytes and whatever the range, every decoder returns a value or
 * throws {@link CodecException}; never an out-of-bounds access, never anything else. The buffers wrap exactly the
 * bytes under test and Agrona's bounds checks are on, so a read one byte past the range would surface as an
 * {@link IndexOutOfBoundsException} and fail the property.
 */
class HostileDecodePropertiesTest {

    @BeforeContainer
    static void boundsChecksOn() {
        TestBuffers.assertBoundsChecksOn();
    }

    @Property(tries = 1000)
    void anyRangeOfAnyBytesDecodesOrThrowsCodecException(@ForAll("codecs") final Codec<?> codec,
                                                        @ForAll("hostileBytes") final byte[] bytes,
                                                        @ForAll("offsets") final int offset,
                                                        @ForAll("lengths") final int length) {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final boolean inside = offset >= 0 && length >= 0 && (long) offset + length <= bytes.length;

        final Throwable thrown = catchThrowable(() -> codec.decode(buffer, offset, length));

        if (!inside) {
            assertThat(thrown).isExactlyInstanceOf(CodecException.class)
                .hasMessageContaining(codec.name())
                .hasMessageContaining("offset " + offset)
                .hasMessageContaining("length " + length)
                .hasMessageContaining("capacity " + bytes.length);
            assertThat(((CodecException) thrown).codecName()).isEqualTo(codec.name());
        } else if (codec == Codecs.UTF8_STRING) {
            assertMatchesStrictJdkDecoder(Arrays.copyOfRange(bytes, offset, offset + length), thrown);
        } else if (ANY_BYTES_VALID.contains(codec.name())) {
            assertThat(thrown).as("any bytes are a valid %s", codec.name()).isNull();
        } else {
            assertNothingButCodecException(codec, thrown);
        }
    }

    @Property(tries = 300)
    void decodingAViewOfExactlyTheRangeNeverReadsPastIt(@ForAll("codecs") final Codec<?> codec,
                                                        @ForAll("hostileBytes") final byte[] bytes,
                                                        @ForAll @IntRange(max = 8) final int cutFront,
                                                        @ForAll @IntRange(max = 8) final int cutBack) {
        final int offset = Math.min(cutFront, bytes.length);
        final int length = Math.max(0, bytes.length - offset - cutBack);
        final UnsafeBuffer view = new UnsafeBuffer(bytes, offset, length);

        final Throwable whole = catchThrowable(() -> codec.decode(view, 0, length));
        if (codec == Codecs.UTF8_STRING) {
            assertMatchesStrictJdkDecoder(Arrays.copyOfRange(bytes, offset, offset + length), whole);
        } else if (ANY_BYTES_VALID.contains(codec.name())) {
            assertThat(whole).isNull();
        } else {
            assertNothingButCodecException(codec, whole);
        }
        // one byte more, or shifted by one, is past the view: refused before anything is read
        assertThat(catchThrowable(() -> codec.decode(view, 0, length + 1))).isExactlyInstanceOf(CodecException.class);
        assertThat(catchThrowable(() -> codec.decode(view, 1, length))).isExactlyInstanceOf(CodecException.class);
    }

    @Property(tries = 500)
    void shortRandomRangesAtAnExactViewDecodeOrAreRefused(@ForAll("codecs") final Codec<?> codec,
                                                          @ForAll("shortBytes") final byte[] bytes) {
        final UnsafeBuffer exact = new UnsafeBuffer(bytes); // nothing before or after the range to read
        final Throwable thrown = catchThrowable(() -> codec.decode(exact, 0, bytes.length));
        if (codec == Codecs.UTF8_STRING) {
            assertMatchesStrictJdkDecoder(bytes, thrown);
        } else {
            assertNothingButCodecException(codec, thrown);
        }
    }

    /** Short byte strings, where a fixed-width decoder meets its own width, one less and one more. */
    @Provide
    Arbitrary<byte[]> shortBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(17)
            .withSizeDistribution(RandomDistribution.uniform());
    }

    @Property(tries = 1000)
    void stringDecoderAcceptsExactlyWhatTheStrictJdkDecoderAccepts(@ForAll("utf8ish") final byte[] bytes) {
        final Throwable thrown = catchThrowable(
            () -> Codecs.UTF8_STRING.decode(new UnsafeBuffer(bytes), 0, bytes.length));
        assertMatchesStrictJdkDecoder(bytes, thrown);
    }

    @Property(tries = 500)
    void truncatedOrCorruptedUtf8IsRejectedOrDecodedAsTheJdkDoes(@ForAll("wellFormed") final String value,
                                                                @ForAll @IntRange(max = 1000) final int cut,
                                                                @ForAll @IntRange(max = 1000) final int at,
                                                                @ForAll final byte replacement,
                                                                @ForAll final boolean corrupt) {
        final byte[] encoded = Values.utf8(value);
        final byte[] bytes = Arrays.copyOf(encoded, Math.min(cut, encoded.length));
        if (corrupt && bytes.length > 0) {
            bytes[at % bytes.length] = replacement;
        }
        final UnsafeBuffer exact = new UnsafeBuffer(bytes);
        final Throwable thrown = catchThrowable(() -> Codecs.UTF8_STRING.decode(exact, 0, bytes.length));
        assertMatchesStrictJdkDecoder(bytes, thrown);
    }

    /**
     * Whatever the outcome, the decoder must agree with the JDK's UTF-8 decoder set to report, not replace,
     * malformed input: the same string if the bytes are valid, a {@link CodecException} if they are not.
     */
    static void assertMatchesStrictJdkDecoder(final byte[] bytes, final Throwable thrown) {
        final String expected = StrictJdkUtf8.decode(bytes);
        if (expected == null) {
            assertThat(thrown).as("malformed UTF-8 %s", Arrays.toString(bytes))
                .isExactlyInstanceOf(CodecException.class)
                .hasMessageContaining(Codecs.UTF8_STRING.name())
                .hasMessageContaining("malformed UTF-8");
        } else {
            assertThat(thrown).as("valid UTF-8 %s", Arrays.toString(bytes)).isNull();
            assertThat(Codecs.UTF8_STRING.decode(new UnsafeBuffer(bytes), 0, bytes.length)).isEqualTo(expected);
        }
    }

    /** The decoders for which every byte string is a valid encoding; the others must refuse some. */
    private static final java.util.Set<String> ANY_BYTES_VALID = java.util.Set.of(Codecs.BYTE_ARRAY.name(),
        Codecs.BYTE_BUFFER.name(), Codecs.DIRECT_BUFFER.name(), Codecs.reusableDirectBufferView().name());

    /** A decoder that may refuse: if it throws at all, it throws a CodecException that names it. */
    static void assertNothingButCodecException(final Codec<?> codec, final Throwable thrown) {
        if (thrown != null) {
            assertThat(thrown).as("%s refused", codec.name()).isExactlyInstanceOf(CodecException.class)
                .hasMessageStartingWith(codec.name() + ": ");
            assertThat(((CodecException) thrown).codecName()).isEqualTo(codec.name());
        }
    }

    /** Every decoder there is: the byte and String codecs, primitives and primitive arrays. */
    static List<Codec<?>> everyDecoder() {
        return List.of(Codecs.BYTE_ARRAY, Codecs.BYTE_BUFFER, Codecs.DIRECT_BUFFER,
            Codecs.reusableDirectBufferView(), Codecs.UTF8_STRING, Codecs.BOOLEAN, Codecs.BYTE, Codecs.SHORT,
            Codecs.CHAR, Codecs.INT, Codecs.LONG, Codecs.FLOAT, Codecs.DOUBLE, Codecs.BOOLEAN_ARRAY,
            Codecs.SHORT_ARRAY, Codecs.CHAR_ARRAY, Codecs.INT_ARRAY, Codecs.LONG_ARRAY, Codecs.FLOAT_ARRAY,
            Codecs.DOUBLE_ARRAY);
    }

    @Provide
    Arbitrary<Codec<?>> codecs() {
        return Arbitraries.of(everyDecoder());
    }

    /** Uniformly random bytes, or bytes that look like UTF-8: the second kind reaches deeper into the decoder. */
    @Provide
    Arbitrary<byte[]> hostileBytes() {
        return Arbitraries.oneOf(
            Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
            utf8ish(),
            Values.wellFormedStrings(50).map(Values::utf8));
    }

    /**
     * Bytes shaped like UTF-8 where decoders go wrong: sequences of a lead byte (ASCII, a stray continuation byte,
     * any lead including C0, C1 and F5..FF, and often the leads whose second byte has a narrower range: E0, ED,
     * F0, F4) followed by zero to three bytes that are mostly continuation bytes at or near the range limits.
     */
    @Provide
    Arbitrary<byte[]> utf8ish() {
        final Arbitrary<Integer> lead = Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.integers().between(0x00, 0x7F)),
            Tuple.of(1, Arbitraries.integers().between(0x80, 0xBF)),
            Tuple.of(4, Arbitraries.integers().between(0xC0, 0xFF)),
            Tuple.of(3, Arbitraries.of(0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF7, 0xFF)));
        final Arbitrary<Integer> trailing = Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(0x80, 0xBF)),
            Tuple.of(3, Arbitraries.of(0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF)),
            Tuple.of(1, Arbitraries.integers().between(0x00, 0xFF)));
        final Arbitrary<List<Integer>> sequence = Combinators
            .combine(lead, trailing.list().ofMaxSize(3).withSizeDistribution(RandomDistribution.uniform()))
            .as((first, rest) -> {
                final List<Integer> bytes = new ArrayList<>(rest.size() + 1);
                bytes.add(first);
                bytes.addAll(rest);
                return bytes;
            });
        return sequence.list().ofMaxSize(6).withSizeDistribution(RandomDistribution.uniform()).map(sequences -> {
            final byte[] bytes = new byte[sequences.stream().mapToInt(List::size).sum()];
            int i = 0;
            for (final List<Integer> each : sequences) {
                for (final int b : each) {
                    bytes[i++] = (byte) b;
                }
            }
            return bytes;
        });
    }

    @Provide
    Arbitrary<String> wellFormed() {
        return Values.wellFormedStrings(40);
    }

    /** Offsets in and around a small buffer, negative ones, and ones where offset + length overflows an int. */
    @Provide
    Arbitrary<Integer> offsets() {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.integers().between(-3, 310)),
            Tuple.of(1, Arbitraries.of(Integer.MIN_VALUE, -1, Integer.MAX_VALUE, Integer.MAX_VALUE - 1)),
            Tuple.of(1, Arbitraries.integers()));
    }

    @Provide
    Arbitrary<Integer> lengths() {
        return offsets();
    }

    @Property(tries = 200)
    void lengthsBeyondTheBufferAreRefusedForEveryBufferKind(@ForAll("codecs") final Codec<?> codec,
                                                           @ForAll final TestBuffers.Kind kind,
                                                           @ForAll @IntRange(max = 64) final int capacity,
                                                           @ForAll @IntRange(min = 1, max = 64) final int beyond) {
        final DirectBuffer buffer = kind.allocate(capacity);
        for (int offset = 0; offset <= capacity; offset++) {
            final int length = capacity - offset + beyond;
            final int start = offset;
            assertThat(catchThrowable(() -> codec.decode(buffer, start, length)))
                .isExactlyInstanceOf(CodecException.class)
                .hasMessageContaining(codec.name())
                .hasMessageContaining("length " + length);
        }
    }
}
