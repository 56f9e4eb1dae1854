package io.rdmareactive.codec;

import static io.rdmareactive.codec.TestBuffers.assertCanaryOutside;
import static io.rdmareactive.codec.TestBuffers.bytesOf;
import static io.rdmareactive.codec.TestBuffers.exactView;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Every codec round-trips every value, at any offset inside a larger buffer of any kind, writes exactly the bytes
 * it reports and nothing around them, and reads nothing past the range (decoded again from a view of exactly the
 * range, where Agrona's bounds checks catch any stray access).
 */
class RoundTripPropertiesTest {

    @BeforeContainer
    static void boundsChecksOn() {
        TestBuffers.assertBoundsChecksOn();
    }

    @Property(tries = 200)
    void byteArrays(@ForAll("bytes") final byte[] value, @ForAll final TestBuffers.Kind kind,
                    @ForAll @IntRange(max = 100) final int offset, @ForAll @IntRange(max = 16) final int slack) {
        final Object[] decoded = roundTrip(Codecs.BYTE_ARRAY, value, value, kind, offset, slack, v -> v);
        assertThat(decoded).containsOnly(value);
    }

    @Property(tries = 200)
    void byteBuffers(@ForAll("byteBuffers") final ByteBuffer value, @ForAll final TestBuffers.Kind kind,
                     @ForAll @IntRange(max = 100) final int offset, @ForAll @IntRange(max = 16) final int slack) {
        final int position = value.position();
        final int limit = value.limit();
        final byte[] content = new byte[value.remaining()];
        value.duplicate().get(content);

        final Object[] decoded = roundTrip(Codecs.BYTE_BUFFER, value, content, kind, offset, slack, buffer -> {
            assertThat(buffer.position()).isZero();
            assertThat(buffer.limit()).isEqualTo(buffer.capacity()).isEqualTo(content.length);
            assertThat(buffer.isReadOnly()).isFalse();
            final byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        });

        assertThat(decoded).containsOnly(content);
        assertThat(value.position()).as("caller's position").isEqualTo(position);
        assertThat(value.limit()).as("caller's limit").isEqualTo(limit);
    }

    @Property(tries = 150)
    void directBuffers(@ForAll("directBuffers") final DirectBuffer value, @ForAll final TestBuffers.Kind kind,
                       @ForAll @IntRange(max = 100) final int offset, @ForAll @IntRange(max = 16) final int slack) {
        final byte[] content = bytesOf(value);
        final Function<DirectBuffer, Object> contentOfView = view -> {
            assertThat(view.capacity()).isEqualTo(content.length);
            return bytesOf(view);
        };
        assertThat(roundTrip(Codecs.DIRECT_BUFFER, value, content, kind, offset, slack, contentOfView))
            .containsOnly(content);
        assertThat(roundTrip(Codecs.reusableDirectBufferView(), value, content, kind, offset, slack, contentOfView))
            .containsOnly(content);
    }

    @Property(tries = 300)
    void strings(@ForAll("strings") final String value, @ForAll final TestBuffers.Kind kind,
                 @ForAll @IntRange(max = 100) final int offset, @ForAll @IntRange(max = 16) final int slack) {
        final byte[] jdkBytes = Values.utf8(value);
        final Object[] decoded = roundTrip(Codecs.UTF8_STRING, value, jdkBytes, kind, offset, slack, s -> s);

        // what the JDK makes of its own bytes: the value itself, or with '?' for each unpaired surrogate
        final String expected = new String(jdkBytes, StandardCharsets.UTF_8);
        assertThat(decoded).containsOnly(expected);
        if (Values.isWellFormed(value)) {
            assertThat(expected).isEqualTo(value);
        }
    }

    @Example
    void emptyValuesRoundTripAtAnyOffsetIncludingTheVeryEnd() {
        for (final TestBuffers.Kind kind : TestBuffers.Kind.values()) {
            for (final int offset : new int[] {0, 1, 17}) {
                for (final int slack : new int[] {0, 3}) {
                    assertThat(roundTrip(Codecs.BYTE_ARRAY, new byte[0], new byte[0], kind, offset, slack, v -> v))
                        .containsOnly(new byte[0]);
                    assertThat(roundTrip(Codecs.BYTE_BUFFER, ByteBuffer.allocate(0), new byte[0], kind, offset, slack,
                        ByteBuffer::remaining)).containsOnly(0);
                    assertThat(roundTrip(Codecs.DIRECT_BUFFER, new UnsafeBuffer(new byte[0]), new byte[0], kind,
                        offset, slack, DirectBuffer::capacity)).containsOnly(0);
                    assertThat(roundTrip(Codecs.reusableDirectBufferView(), new UnsafeBuffer(new byte[0]),
                        new byte[0], kind, offset, slack, DirectBuffer::capacity)).containsOnly(0);
                    assertThat(roundTrip(Codecs.UTF8_STRING, "", new byte[0], kind, offset, slack, s -> s))
                        .containsOnly("");
                }
            }
        }
    }

    @Example
    void oneMebibyteValuesRoundTrip() {
        final byte[] content = TestBuffers.randomBytes(Values.MIB, 42);
        assertThat(roundTrip(Codecs.BYTE_ARRAY, content, content, TestBuffers.Kind.OFF_HEAP, 13, 0, v -> v))
            .containsOnly(content);
        assertThat(roundTrip(Codecs.BYTE_BUFFER, Values.byteBuffer(content, 1, 5), content,
            TestBuffers.Kind.OFF_HEAP, 13, 0, RoundTripPropertiesTest::remainingBytes)).containsOnly(content);
        assertThat(roundTrip(Codecs.DIRECT_BUFFER, Values.directBuffer(content, 1), content,
            TestBuffers.Kind.OFF_HEAP, 13, 0, TestBuffers::bytesOf)).containsOnly(content);

        final String piece = "ascii é € 😀 "; // 18 bytes of UTF-8 with every sequence length
        final String value = piece.repeat(Values.MIB / Values.utf8(piece).length);
        assertThat(Values.utf8(value).length).isBetween(Values.MIB - 18, Values.MIB);
        assertThat(roundTrip(Codecs.UTF8_STRING, value, Values.utf8(value), TestBuffers.Kind.OFF_HEAP, 13, 0,
            s -> s)).containsOnly(value);
    }

    private static byte[] remainingBytes(final ByteBuffer buffer) {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /**
     * Encodes {@code value} at {@code offset} of a canary-filled buffer with {@code slack} spare bytes in the range,
     * checks the bytes written, then decodes them from that buffer and from a view of exactly the range.
     * {@code normalize} turns each decoded value into something comparable at once (a reusable view is only valid
     * until the next decode).
     */
    static <T> Object[] roundTrip(final Codec<T> codec, final T value, final byte[] expectedEncoding,
                                  final TestBuffers.Kind kind, final int offset, final int slack,
                                  final Function<? super T, Object> normalize) {
        final int length = codec.encodedLength(value);
        assertThat(length).as("encodedLength").isEqualTo(expectedEncoding.length);

        final MutableDirectBuffer buffer = kind.allocate(offset + length + slack + 7);
        final int written = codec.encode(value, buffer, offset, length + slack);
        assertThat(written).as("bytes written").isEqualTo(length);
        assertCanaryOutside(buffer, offset, offset + length);
        assertThat(bytesOf(buffer, offset, length)).isEqualTo(expectedEncoding);

        // once more into a view of exactly [offset, offset + length): a write past it would throw
        final MutableDirectBuffer again = kind.allocate(offset + length + 7);
        final UnsafeBuffer exactTarget = exactView(again, offset, length);
        assertThat(codec.encode(value, exactTarget, 0, length)).isEqualTo(length);
        assertCanaryOutside(again, offset, offset + length);
        assertThat(bytesOf(again, offset, length)).isEqualTo(expectedEncoding);

        final Object fromBuffer = normalize.apply(codec.decode(buffer, offset, length));
        final Object fromExactView = normalize.apply(codec.decode(exactView(buffer, offset, length), 0, length));
        assertCanaryOutside(buffer, offset, offset + length);
        return new Object[] {fromBuffer, fromExactView};
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return Values.bytes(Values.MIB);
    }

    @Provide
    Arbitrary<ByteBuffer> byteBuffers() {
        return Values.byteBuffers(Values.MIB);
    }

    @Provide
    Arbitrary<DirectBuffer> directBuffers() {
        return Values.directBuffers(Values.MIB);
    }

    @Provide
    Arbitrary<String> strings() {
        return Values.strings();
    }
}
