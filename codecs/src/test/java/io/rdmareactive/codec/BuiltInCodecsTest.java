package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class BuiltInCodecsTest {

    private static final List<Codec<?>> ALL = List.of(Codecs.BYTE_ARRAY, Codecs.BYTE_BUFFER, Codecs.DIRECT_BUFFER,
        Codecs.reusableDirectBufferView(), Codecs.UTF8_STRING);

    @Test
    void namesAreDistinctAndAreWhatToStringSays() {
        assertThat(ALL).extracting(Codec::name).doesNotHaveDuplicates()
            .containsExactly("byte-array", "byte-buffer", "direct-buffer", "direct-buffer-reusable-view",
                "utf8-string");
        ALL.forEach(codec -> assertThat(codec).hasToString(codec.name()));
    }

    @Test
    void onlyTheDirectBufferCodecsDecodeToViews() {
        assertThat(ALL).extracting(Codec::decodesToView).containsExactly(false, false, true, true, false);
    }

    @Test
    void rangeErrorsNameTheCodecTheLengthAndTheRange() {
        final UnsafeBuffer eight = new UnsafeBuffer(new byte[8]);
        assertThatThrownBy(() -> Codecs.BYTE_ARRAY.decode(eight, 5, 10))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("byte-array: cannot decode from [offset 5, length 10): not inside the buffer (capacity 8)");
        assertThatThrownBy(() -> Codecs.UTF8_STRING.encode("hello", eight, 5, 4))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("utf8-string: cannot encode into [offset 5, length 4): not inside the buffer (capacity 8)");
        assertThatThrownBy(() -> Codecs.UTF8_STRING.encode("hello", eight, 4, 3))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("utf8-string: encoding needs 5 bytes, more than maxLength 3 of [offset 4, length 3)");
    }

    @Test
    void onlyTheDirectBufferCodecsHandOverBytesToCopyFromAndThoseAreTheEncoding() {
        final DirectBuffer part = new UnsafeBuffer(new byte[] {9, 8, 7, 6, 5}, 1, 3);
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[3]);
        for (final Codec<DirectBuffer> codec : List.of(Codecs.DIRECT_BUFFER, Codecs.reusableDirectBufferView())) {
            final DirectBuffer bytes = codec.encodedBytes(part);
            assertThat(codec.encode(part, encoded, 0, 3)).isEqualTo(codec.encodedLength(part));
            assertThat(TestBuffers.bytesOf(bytes, 0, codec.encodedLength(part)))
                .as(codec.name()).containsExactly(TestBuffers.bytesOf(encoded, 0, 3));
        }
        assertThat(Codecs.BYTE_ARRAY.encodedBytes(new byte[4])).isNull();
        assertThat(Codecs.BYTE_BUFFER.encodedBytes(ByteBuffer.allocate(4))).isNull();
        assertThat(Codecs.UTF8_STRING.encodedBytes("four")).isNull();
        assertThatThrownBy(() -> Codecs.DIRECT_BUFFER.encodedBytes(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Codecs.UTF8_STRING.encodedBytes(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void nullArgumentsAreProgrammingErrors() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        for (final Codec<?> codec : ALL) {
            assertThatThrownBy(() -> codec.decode(null, 0, 0)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> codec.encodedLength(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> codec.encode(null, buffer, 0, 8)).isInstanceOf(NullPointerException.class);
        }
        assertThatThrownBy(() -> Codecs.BYTE_ARRAY.encode(new byte[1], null, 0, 8))
            .isInstanceOf(NullPointerException.class);
    }

    @Test
    void aDecodedByteArrayIsACopyTheCallerOwns() {
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[] {1, 2, 3, 4});
        final byte[] decoded = Codecs.BYTE_ARRAY.decode(ring, 1, 2);
        ring.putByte(1, (byte) 9);
        assertThat(decoded).containsExactly(2, 3);
        assertThat(Codecs.BYTE_ARRAY.decode(ring, 4, 0)).isEmpty();
    }

    @Test
    void encodingAByteBufferMovesNeitherItsPositionNorItsLimitNorItsMark() {
        final ByteBuffer value = ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4, 5}).position(1).limit(5);
        value.mark();
        value.position(2);
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[8]);

        assertThat(Codecs.BYTE_BUFFER.encode(value, ring, 1, 3)).isEqualTo(3);

        assertThat(TestBuffers.bytesOf(ring, 1, 3)).containsExactly(2, 3, 4);
        assertThat(value.position()).isEqualTo(2);
        assertThat(value.limit()).isEqualTo(5);
        assertThat(value.reset().position()).as("mark").isEqualTo(1);
    }

    @Test
    void aDecodedByteBufferIsAFreshWritableBigEndianCopy() {
        final UnsafeBuffer ring = new UnsafeBuffer(ByteBuffer.allocateDirect(8));
        ring.putLong(0, 0x0102030405060708L, ByteOrder.BIG_ENDIAN);

        final ByteBuffer decoded = Codecs.BYTE_BUFFER.decode(ring, 2, 4);
        ring.setMemory(0, 8, (byte) 0);

        assertThat(decoded.isReadOnly()).isFalse();
        assertThat(decoded.isDirect()).isFalse();
        assertThat(decoded.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(decoded.position()).isZero();
        assertThat(decoded.limit()).isEqualTo(4).isEqualTo(decoded.capacity());
        assertThat(decoded.getInt()).isEqualTo(0x03040506);
    }

    @Test
    void aByteBufferThatGrewAfterItsLengthWasTakenIsRefusedNotOverrun() {
        final ByteBuffer value = ByteBuffer.allocate(32).limit(10);
        final int claimed = Codecs.BYTE_BUFFER.encodedLength(value);
        value.limit(20); // the caller changed it between encodedLength and encode
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[32]);
        TestBuffers.fill(ring);

        assertThatThrownBy(() -> Codecs.BYTE_BUFFER.encode(value, ring, 0, claimed))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessageContaining("needs 20 bytes, more than maxLength 10");
        TestBuffers.assertCanary(ring, 0, 32);
    }

    @Test
    void aDecodedDirectBufferIsAViewOfExactlyTheRangeNotACopy() {
        final UnsafeBuffer ring = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
        ring.putInt(4, 42);

        final DirectBuffer view = Codecs.DIRECT_BUFFER.decode(ring, 4, 8);

        assertThat(view.capacity()).isEqualTo(8);
        assertThat(view.addressOffset()).isEqualTo(ring.addressOffset() + 4);
        assertThat(view.getInt(0)).isEqualTo(42);
        ring.putInt(4, 43);
        assertThat(view.getInt(0)).as("sees the ring, no copy").isEqualTo(43);
        assertThatThrownBy(() -> view.getByte(8)).as("and nothing past the range")
            .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void theSharedDirectBufferCodecHandsOutANewViewEachTimeTheReusableOneTheSameView() {
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[] {1, 2, 3, 4});

        final DirectBuffer first = Codecs.DIRECT_BUFFER.decode(ring, 0, 2);
        final DirectBuffer second = Codecs.DIRECT_BUFFER.decode(ring, 2, 2);
        assertThat(first).isNotSameAs(second);
        assertThat(first.getByte(0)).isEqualTo((byte) 1);

        final Codec<DirectBuffer> reusable = Codecs.reusableDirectBufferView();
        assertThat(reusable).isNotSameAs(Codecs.reusableDirectBufferView());
        final DirectBuffer a = reusable.decode(ring, 0, 2);
        assertThat(a.getByte(0)).isEqualTo((byte) 1);
        final DirectBuffer b = reusable.decode(ring, 2, 2);
        assertThat(b).isSameAs(a);
        assertThat(a.getByte(0)).as("the next decode moved the view").isEqualTo((byte) 3);
    }

    @Test
    void encodingADirectBufferCopiesItsWholeCapacity() {
        final DirectBuffer part = new UnsafeBuffer(new byte[] {9, 8, 7, 6, 5}, 1, 3);
        final UnsafeBuffer ring = new UnsafeBuffer(new byte[6]);
        TestBuffers.fill(ring);

        assertThat(Codecs.DIRECT_BUFFER.encodedLength(part)).isEqualTo(3);
        assertThat(Codecs.DIRECT_BUFFER.encode(part, ring, 2, 4)).isEqualTo(3);
        assertThat(TestBuffers.bytesOf(ring, 2, 3)).containsExactly(8, 7, 6);
        TestBuffers.assertCanaryOutside(ring, 2, 5);
    }
}
