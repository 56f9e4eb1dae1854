package io.rdmareactive.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * {@code byte[]} as its own bytes. Encode is one bulk copy and allocates nothing; decode copies the range into a
 * new array that the caller owns. Stateless and thread safe.
 */
final class ByteArrayCodec implements Codec<byte[]> {

    static final String NAME = "byte-array";

    private static final byte[] EMPTY = new byte[0];

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int encodedLength(final byte[] value) {
        return value.length;
    }

    @Override
    public int encode(final byte[] value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        final int length = value.length;
        CodecRanges.checkEncodeRange(NAME, buffer, offset, maxLength);
        if (length > maxLength) {
            throw CodecRanges.doesNotFit(NAME, length, offset, maxLength);
        }
        buffer.putBytes(offset, value, 0, length);
        return length;
    }

    @Override
    public byte[] decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(NAME, buffer, offset, length);
        if (length == 0) {
            return EMPTY; // nothing to mutate, so one shared instance is safe
        }
        final byte[] value = new byte[length];
        buffer.getBytes(offset, value, 0, length);
        return value;
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
