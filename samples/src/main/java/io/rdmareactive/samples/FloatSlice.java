package io.rdmareactive.samples;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import io.rdmareactive.codec.CodecRanges;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A range of a float array on its way to the right neighbour: {@link #CODEC} writes the floats straight from the
 * array into the connection's send ring (on shared memory, the peer's receive ring), with no copy in between, and marks
 * the slice written, so that the sender knows when the array may change. A link reuses its slice objects in turn, each
 * once it was written.
 */
final class FloatSlice {

    /** Encodes a slice's floats, 4 bytes each in the machine's order; decodes a message into a slice of its own. */
    static final Codec<FloatSlice> CODEC = new Codec<>() {
        @Override
        public String name() {
            return "float-slice";
        }

        @Override
        public int encodedLength(final FloatSlice slice) {
            return slice.count * Float.BYTES;
        }

        @Override
        public int encode(final FloatSlice slice, final MutableDirectBuffer buffer, final int offset,
                          final int maxLength) {
            CodecRanges.checkEncodeRange(name(), buffer, offset, maxLength);
            final int length = encodedLength(slice);
            if (length > maxLength) {
                throw new CodecException(name(), "a slice of " + length + " bytes does not fit in " + maxLength);
            }
            FloatCopies.toBuffer(slice.source, slice.offset, buffer, offset, slice.count);
            slice.written();
            return length;
        }

        @Override
        public FloatSlice decode(final DirectBuffer buffer, final int offset, final int length) {
            CodecRanges.checkDecodeRange(name(), buffer, offset, length);
            if (length % Float.BYTES != 0) {
                throw new CodecException(name(), length + " bytes are not a whole number of floats");
            }
            final float[] floats = new float[length / Float.BYTES];
            FloatCopies.fromBuffer(buffer, offset, floats, 0, floats.length);
            final FloatSlice slice = new FloatSlice(null);
            slice.set(floats, 0, floats.length);
            return slice;
        }

        @Override
        public boolean decodesToView() {
            return false;
        }
    };

    private final SendProgress progress;
    private float[] source;
    private int offset;
    private int count;

    /** @param progress told when the slice was written; null for a slice that is never sent */
    FloatSlice(final SendProgress progress) {
        this.progress = progress;
    }

    /** Makes this slice the next send: {@code source[offset, offset + count)}. */
    void set(final float[] source, final int offset, final int count) {
        this.source = source;
        this.offset = offset;
        this.count = count;
    }

    private void written() {
        if (progress != null) {
            progress.written();
        }
    }
}
