package io.rdmareactive.samples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Bulk copies of floats between a Java array and an Agrona buffer, in the machine's byte order (the order of
 * {@link DirectBuffer#getFloat(int)}): one memory copy where the buffer is off-heap memory (a ring), float by float
 * where it wraps a byte array (a message reassembled from fragments).
 */
final class FloatCopies {

    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private FloatCopies() {
    }

    /** Copies {@code source[from, from + count)} to {@code target} at byte {@code at}, which the caller checked. */
    static void toBuffer(final float[] source, final int from, final MutableDirectBuffer target, final int at,
                         final int count) {
        if (target.byteArray() == null) {
            MemorySegment.copy(source, from, offHeap(target, at, count), FLOAT, 0, count);
        } else {
            for (int i = 0; i < count; i++) {
                target.putFloat(at + i * Float.BYTES, source[from + i]);
            }
        }
    }

    /** Copies {@code count} floats of {@code source} from byte {@code at} to {@code target[from, from + count)}. */
    static void fromBuffer(final DirectBuffer source, final int at, final float[] target, final int from,
                           final int count) {
        if (source.byteArray() == null) {
            MemorySegment.copy(offHeap(source, at, count), FLOAT, 0, target, from, count);
        } else {
            for (int i = 0; i < count; i++) {
                target[from + i] = source.getFloat(at + i * Float.BYTES);
            }
        }
    }

    private static MemorySegment offHeap(final DirectBuffer buffer, final int at, final int count) {
        if (at < 0 || (long) at + (long) count * Float.BYTES > buffer.capacity()) {
            throw new IndexOutOfBoundsException(count + " floats at " + at + " of " + buffer.capacity() + " bytes");
        }
        return MemorySegment.ofAddress(buffer.addressOffset() + at).reinterpret((long) count * Float.BYTES);
    }
}
