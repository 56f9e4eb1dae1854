package io.rdmareactive.codec;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * {@link ByteBuffer} as the bytes between its position and its limit.
 *
 * <p>Encode copies {@code [position, limit)} of the value with absolute access: the caller's position, limit and
 * mark do not move, and heap, direct, sliced and read-only buffers are all accepted. Decode returns a
 * <em>fresh</em> heap buffer that owns a copy of the range (position 0, limit and capacity the range's length,
 * big-endian, writable): received ring space is reused as soon as the subscriber's {@code onNext} returns, so a
 * buffer that outlives it must not view it. For a zero-copy view use {@link Codecs#DIRECT_BUFFER}.
 *
 * <p>Stateless and thread safe (a {@code ByteBuffer} value itself is not, and must not be modified during encode).
 */
final class ByteBufferCodec implements Codec<ByteBuffer> {

    static final String NAME = "byte-buffer";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int encodedLength(final ByteBuffer value) {
        return value.remaining();
    }

    @Override
    public int encode(final ByteBuffer value, final MutableDirectBuffer buffer, final int offset,
                      final int maxLength) {
        // read position and limit once, so the copy below uses one consistent pair
        final int position = value.position();
        final int length = value.limit() - position;
        CodecRanges.checkEncodeRange(NAME, buffer, offset, maxLength);
        if (length > maxLength) {
            throw CodecRanges.doesNotFit(NAME, length, offset, maxLength);
        }
        buffer.putBytes(offset, value, position, length);
        return length;
    }

    @Override
    public ByteBuffer decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(NAME, buffer, offset, length);
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy, 0, length);
        return ByteBuffer.wrap(copy);
    }

    @Override
    public boolean decodesToView() {
        return false;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
