package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Boxed primitives and primitive arrays round-trip bit for bit (NaN payloads and negative zero included), as
 * little-endian bytes, at any offset of any kind of buffer; decode accepts exactly the width (or a multiple of it)
 * and nothing else.
 */
class PrimitiveCodecsTest {

    @BeforeContainer
    static void boundsChecksOn() {
        TestBuffers.assertBoundsChecksOn();
    }

    @Property(tries = 300)
    void scalarsRoundTripAsLittleEndianBytes(@ForAll final long bits, @ForAll final TestBuffers.Kind kind,
                                             @ForAll @IntRange(max = 40) final int offset,
                                             @ForAll @IntRange(max = 8) final int slack) {
        check(Codecs.BOOLEAN, (bits & 1) != 0, new byte[] {(byte) (bits & 1)}, kind, offset, slack);
        check(Codecs.BYTE, (byte) bits, le(bits, 1), kind, offset, slack);
        check(Codecs.SHORT, (short) bits, le(bits, 2), kind, offset, slack);
        check(Codecs.CHAR, (char) bits, le(bits, 2), kind, offset, slack);
        check(Codecs.INT, (int) bits, le(bits, 4), kind, offset, slack);
        check(Codecs.LONG, bits, le(bits, 8), kind, offset, slack);
        // raw bits: any NaN payload, both zeros, infinities
        final float f = Float.intBitsToFloat((int) bits);
        assertThat(Float.floatToRawIntBits(roundTrip(Codecs.FLOAT, f, le(bits, 4), kind, offset, slack)))
            .isEqualTo((int) bits);
        final double d = Double.longBitsToDouble(bits);
        assertThat(Double.doubleToRawLongBits(roundTrip(Codecs.DOUBLE, d, le(bits, 8), kind, offset, slack)))
            .isEqualTo(bits);
    }

    @Property(tries = 200)
    void arraysRoundTripElementByElement(@ForAll("longArrays") final long[] bits, @ForAll final TestBuffers.Kind kind,
                                         @ForAll @IntRange(max = 40) final int offset,
                                         @ForAll @IntRange(max = 8) final int slack) {
        final int n = bits.length;
        final boolean[] booleans = new boolean[n];
        final short[] shorts = new short[n];
        final char[] chars = new char[n];
        final int[] ints = new int[n];
        final float[] floats = new float[n];
        final double[] doubles = new double[n];
        final ByteBuffer b1 = le(n), b2 = le(2 * n), c2 = le(2 * n), b4 = le(4 * n), f4 = le(4 * n), b8 = le(8 * n);
        for (int i = 0; i < n; i++) {
            booleans[i] = (bits[i] & 1) != 0;
            shorts[i] = (short) bits[i];
            chars[i] = (char) bits[i];
            ints[i] = (int) bits[i];
            floats[i] = Float.intBitsToFloat((int) bits[i]);
            doubles[i] = Double.longBitsToDouble(bits[i]);
            b1.put((byte) (bits[i] & 1));
            b2.putShort(shorts[i]);
            c2.putChar(chars[i]);
            b4.putInt(ints[i]);
            f4.putInt(Float.floatToRawIntBits(floats[i]));
            b8.putLong(bits[i]);
        }
        assertThat(roundTrip(Codecs.BOOLEAN_ARRAY, booleans, b1.array(), kind, offset, slack)).isEqualTo(booleans);
        assertThat(roundTrip(Codecs.SHORT_ARRAY, shorts, b2.array(), kind, offset, slack)).isEqualTo(shorts);
        assertThat(roundTrip(Codecs.CHAR_ARRAY, chars, c2.array(), kind, offset, slack)).isEqualTo(chars);
        assertThat(roundTrip(Codecs.INT_ARRAY, ints, b4.array(), kind, offset, slack)).isEqualTo(ints);
        assertThat(roundTrip(Codecs.LONG_ARRAY, bits, b8.array(), kind, offset, slack)).isEqualTo(bits);
        final float[] decodedFloats = roundTrip(Codecs.FLOAT_ARRAY, floats, f4.array(), kind, offset, slack);
        final double[] decodedDoubles = roundTrip(Codecs.DOUBLE_ARRAY, doubles, b8.array(), kind, offset, slack);
        for (int i = 0; i < n; i++) {
            assertThat(Float.floatToRawIntBits(decodedFloats[i])).isEqualTo((int) bits[i]);
            assertThat(Double.doubleToRawLongBits(decodedDoubles[i])).isEqualTo(bits[i]);
        }
    }

    @Example
    void emptyAndMaximumSizeArraysRoundTrip() {
        assertThat(roundTrip(Codecs.INT_ARRAY, new int[0], new byte[0], TestBuffers.Kind.HEAP, 3, 0)).isEmpty();
        assertThat(roundTrip(Codecs.BOOLEAN_ARRAY, new boolean[0], new byte[0], TestBuffers.Kind.HEAP, 0, 0))
            .isEmpty();
        // 1 MiB of longs, the largest message the tests use elsewhere
        final long[] large = new long[Values.MIB / Long.BYTES];
        final java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < large.length; i++) {
            large[i] = random.nextLong();
        }
        final ByteBuffer expected = le(Values.MIB);
        for (final long each : large) {
            expected.putLong(each);
        }
        assertThat(roundTrip(Codecs.LONG_ARRAY, large, expected.array(), TestBuffers.Kind.OFF_HEAP, 13, 0))
            .isEqualTo(large);
    }

    @Example
    void decodeAcceptsExactlyTheWidthOrAMultipleOfIt() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        assertThatThrownBy(() -> Codecs.INT.decode(buffer, 2, 3)).isExactlyInstanceOf(CodecException.class)
            .hasMessage("int: expected exactly 4 bytes, got length 3 of [offset 2, length 3)");
        assertThatThrownBy(() -> Codecs.LONG.decode(buffer, 0, 16)).isExactlyInstanceOf(CodecException.class)
            .hasMessageContaining("expected exactly 8 bytes, got length 16");
        assertThatThrownBy(() -> Codecs.DOUBLE_ARRAY.decode(buffer, 0, 12)).isExactlyInstanceOf(CodecException.class)
            .hasMessage("double-array: length 12 of [offset 0, length 12) is not a multiple of the element width 8");
        assertThat(Codecs.SHORT_ARRAY.decode(buffer, 4, 12)).hasSize(6);
    }

    @Example
    void aBooleanIsZeroOrOneAndNothingElse() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[] {0, 1, 2, (byte) 0xFF});
        assertThat(Codecs.BOOLEAN.decode(buffer, 0, 1)).isFalse();
        assertThat(Codecs.BOOLEAN.decode(buffer, 1, 1)).isTrue();
        assertThatThrownBy(() -> Codecs.BOOLEAN.decode(buffer, 2, 1)).isExactlyInstanceOf(CodecException.class)
            .hasMessage("boolean: a boolean is the byte 0 or 1, not 2 at buffer index 2");
        assertThatThrownBy(() -> Codecs.BOOLEAN_ARRAY.decode(buffer, 0, 4)).isExactlyInstanceOf(CodecException.class)
            .hasMessage("boolean-array: a boolean is the byte 0 or 1, not 2 at element 2 (buffer index 2)");
    }

    @Example
    void namesAreDistinctAndNoneDecodesToAView() {
        final List<Codec<?>> all = List.of(Codecs.BOOLEAN, Codecs.BYTE, Codecs.SHORT, Codecs.CHAR, Codecs.INT,
            Codecs.LONG, Codecs.FLOAT, Codecs.DOUBLE, Codecs.BOOLEAN_ARRAY, Codecs.SHORT_ARRAY, Codecs.CHAR_ARRAY,
            Codecs.INT_ARRAY, Codecs.LONG_ARRAY, Codecs.FLOAT_ARRAY, Codecs.DOUBLE_ARRAY, Codecs.BYTE_ARRAY);
        assertThat(all).extracting(Codec::name).doesNotHaveDuplicates();
        assertThat(all).extracting(Codec::decodesToView).containsOnly(false);
        all.forEach(codec -> assertThat(codec).hasToString(codec.name()));
    }

    @Provide
    Arbitrary<long[]> longArrays() {
        return Arbitraries.longs().array(long[].class).ofMaxSize(300);
    }

    private static <T> void check(final Codec<T> codec, final T value, final byte[] expected,
                                  final TestBuffers.Kind kind, final int offset, final int slack) {
        assertThat(roundTrip(codec, value, expected, kind, offset, slack)).isEqualTo(value);
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(final Codec<T> codec, final T value, final byte[] expected,
                                   final TestBuffers.Kind kind, final int offset, final int slack) {
        final Object[] decoded = RoundTripPropertiesTest.roundTrip(codec, value, expected, kind, offset, slack,
            Function.identity());
        // both decodes (from the buffer and from an exact view) encode back to the expected bytes: bit for bit,
        // which equals() would not show for NaN
        for (final Object each : decoded) {
            final UnsafeBuffer again = new UnsafeBuffer(new byte[expected.length]);
            assertThat(codec.encode((T) each, again, 0, expected.length)).isEqualTo(expected.length);
            assertThat(again.byteArray()).isEqualTo(expected);
        }
        return (T) decoded[0];
    }

    private static byte[] le(final long bits, final int width) {
        return java.util.Arrays.copyOf(le(8).putLong(bits).array(), width);
    }

    private static ByteBuffer le(final int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
