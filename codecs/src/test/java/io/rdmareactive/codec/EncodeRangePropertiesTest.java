package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.ByteBuffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encode never writes outside its range: a range too small for the value, or one that is malformed or not
 * inside the buffer, is refused with a {@link CodecException} naming the codec and the lengths, before a single
 * byte is written.
 */
class EncodeRangePropertiesTest {

    /** A codec and a value for it. */
    record Case<T>(Codec<T> codec, T value) {

        int length() {
            return codec.encodedLength(value);
        }

        int encode(final MutableDirectBuffer buffer, final int offset, final int maxLength) {
            return codec.encode(value, buffer, offset, maxLength);
        }

        @Override
        public String toString() {
            return codec.name() + " of " + length() + " bytes";
        }
    }

    @BeforeContainer
    static void boundsChecksOn() {
        TestBuffers.assertBoundsChecksOn();
    }

    @Property(tries = 500)
    void aRangeTooSmallIsRefusedAndNothingIsWritten(@ForAll("nonEmptyCases") final Case<?> value,
                                                    @ForAll final TestBuffers.Kind kind,
                                                    @ForAll @IntRange(max = 40) final int offset,
                                                    @ForAll @IntRange(max = 40) final int after,
                                                    @ForAll @IntRange(min = 1, max = 1000) final int shortBy) {
        final int length = value.length();
        final int maxLength = Math.max(0, length - shortBy);
        final MutableDirectBuffer buffer = kind.allocate(offset + maxLength + after);

        final Throwable thrown = catchThrowable(() -> value.encode(buffer, offset, maxLength));

        assertThat(thrown).isExactlyInstanceOf(CodecException.class)
            .hasMessage("%s: encoding needs %d bytes, more than maxLength %d of [offset %d, length %d)",
                value.codec().name(), length, maxLength, offset, maxLength);
        assertThat(((CodecException) thrown).codecName()).isEqualTo(value.codec().name());
        TestBuffers.assertCanary(buffer, 0, buffer.capacity());
    }

    @Property(tries = 1000)
    void aRangeNotInsideTheBufferIsRefusedAndNothingIsWritten(@ForAll("cases") final Case<?> value,
                                                              @ForAll("fixedKinds") final TestBuffers.Kind kind,
                                                              @ForAll @IntRange(max = 80) final int capacity,
                                                              @ForAll("offsets") final int offset,
                                                              @ForAll("offsets") final int maxLength) {
        final MutableDirectBuffer buffer = kind.allocate(capacity);
        final boolean inside = offset >= 0 && maxLength >= 0 && (long) offset + maxLength <= capacity;
        final int length = value.length();

        final Throwable thrown = catchThrowable(() -> value.encode(buffer, offset, maxLength));

        if (!inside) {
            assertThat(thrown).isExactlyInstanceOf(CodecException.class)
                .hasMessage("%s: cannot encode into [offset %d, length %d): not inside the buffer (capacity %d)",
                    value.codec().name(), offset, maxLength, capacity);
            TestBuffers.assertCanary(buffer, 0, capacity);
        } else if (length > maxLength) {
            assertThat(thrown).isExactlyInstanceOf(CodecException.class).hasMessageContaining("needs " + length);
            TestBuffers.assertCanary(buffer, 0, capacity);
        } else {
            assertThat(thrown).isNull();
            TestBuffers.assertCanaryOutside(buffer, offset, offset + length);
        }
    }

    @Property(tries = 200)
    void anExpandableBufferGrowsToHoldARangeBeyondItsCapacity(@ForAll("cases") final Case<?> value,
                                                              @ForAll @IntRange(max = 32) final int capacity,
                                                              @ForAll @IntRange(max = 64) final int offset) {
        final MutableDirectBuffer buffer = TestBuffers.Kind.EXPANDABLE_ARRAY.allocate(capacity);
        final int length = value.length();

        assertThat(value.encode(buffer, offset, length)).isEqualTo(length);
        assertThat(buffer.capacity()).isGreaterThanOrEqualTo(offset + length);
        TestBuffers.assertCanary(buffer, 0, Math.min(offset, capacity));

        // still refused: ranges no int index can address
        assertThat(catchThrowable(() -> value.encode(buffer, -1, length))).isInstanceOf(CodecException.class);
        assertThat(catchThrowable(() -> value.encode(buffer, Integer.MAX_VALUE, 1)))
            .isInstanceOf(CodecException.class)
            .hasMessageContaining("capacity " + buffer.capacity() + ", expandable");
    }

    @Provide
    Arbitrary<Case<?>> cases() {
        return cases(Values.bytes(100), Values.strings().filter(s -> s.length() < 100));
    }

    @Provide
    Arbitrary<Case<?>> nonEmptyCases() {
        return cases(Values.bytes(4096), Values.strings()).filter(c -> c.length() > 0);
    }

    private static Arbitrary<Case<?>> cases(final Arbitrary<byte[]> bytes, final Arbitrary<String> strings) {
        return Arbitraries.oneOf(
            bytes.map(b -> new Case<>(Codecs.BYTE_ARRAY, b)),
            bytes.map(b -> new Case<ByteBuffer>(Codecs.BYTE_BUFFER, Values.byteBuffer(b, b.length, 3))),
            bytes.map(b -> new Case<DirectBuffer>(Codecs.DIRECT_BUFFER, Values.directBuffer(b, b.length))),
            bytes.map(b -> new Case<DirectBuffer>(Codecs.reusableDirectBufferView(), Values.directBuffer(b, 0))),
            strings.map(s -> new Case<>(Codecs.UTF8_STRING, s)));
    }

    @Provide
    Arbitrary<TestBuffers.Kind> fixedKinds() {
        return Arbitraries.of(TestBuffers.Kind.HEAP, TestBuffers.Kind.OFF_HEAP, TestBuffers.Kind.HEAP_SLICE);
    }

    @Provide
    Arbitrary<Integer> offsets() {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.integers().between(-3, 90)),
            Tuple.of(1, Arbitraries.of(Integer.MIN_VALUE, -1, Integer.MAX_VALUE, Integer.MAX_VALUE - 1)),
            Tuple.of(1, Arbitraries.integers()));
    }
}
