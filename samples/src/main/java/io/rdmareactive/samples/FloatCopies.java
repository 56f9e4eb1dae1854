package io.rdmareactive.samples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Bulk copies of floats between a Java array and an Agrona buffer or a memory segment, in the machine's byte order
 * (the order of {@link DirectBuffer#getFloat(int)}; both ends of a ring link run on this machine): one memory copy
 * where the buffer is off-heap memory (a ring, a log buffer, a direct Netty buffer), float by float where an Agrona
 * buffer wraps a byte array (a message reassembled from fragments). The all-reduce links of every transport use them.
 */
public final class FloatCopies {

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

    /** @return {@code length} bytes of {@code buffer} from {@code offset}, off-heap or on the heap, as a segment */
    public static MemorySegment segment(final DirectBuffer buffer, final int offset, final int length) {
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new IndexOutOfBoundsException(length + " bytes at " + offset + " of " + buffer.capacity());
        }
        final byte[] array = buffer.byteArray();
        return array == null ? MemorySegment.ofAddress(buffer.addressOffset() + offset).reinterpret(length)
            : MemorySegment.ofArray(array).asSlice(buffer.wrapAdjustment() + offset, length);
    }

    /** Copies {@code source[from, from + count)} to the start of {@code target}, in the machine's byte order. */
    public static void write(final float[] source, final int from, final int count, final MemorySegment target) {
        MemorySegment.copy(source, from, target, FLOAT, 0, count);
    }

    /**
     * Stores the floats of {@code frame} as {@code target[at + i] = frame[i]}, or {@code addend[at + i] + frame[i]}
     * when {@code addend} is not null: one copy, then a second pass over what is now in the cache, which the JIT
     * turns into vector additions.
     */
    public static void store(final MemorySegment frame, final float[] target, final float[] addend, final int at) {
        final int count = (int) (frame.byteSize() / Float.BYTES);
        MemorySegment.copy(frame, FLOAT, 0, target, at, count);
        if (addend != null) {
            for (int i = at, end = at + count; i < end; i++) {
                target[i] += addend[i];
            }
        }
    }
}
