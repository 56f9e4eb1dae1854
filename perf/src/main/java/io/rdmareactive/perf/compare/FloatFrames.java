package io.rdmareactive.perf.compare;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.agrona.DirectBuffer;

/**
 * Bulk copies of floats between a rank's array and a frame's bytes, in the machine's byte order (both ends of a
 * ring link run on this machine), for the all-reduce links of Aeron and TCP: one memory copy each way, whether the
 * frame is off-heap (a log buffer, a direct Netty buffer) or on the heap (a reassembled message).
 */
final class FloatFrames {

    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private FloatFrames() {
    }

    /** @return {@code length} bytes of {@code buffer} from {@code offset}, as a segment */
    static MemorySegment segment(final DirectBuffer buffer, final int offset, final int length) {
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new IndexOutOfBoundsException(length + " bytes at " + offset + " of " + buffer.capacity());
        }
        final byte[] array = buffer.byteArray();
        return array == null ? MemorySegment.ofAddress(buffer.addressOffset() + offset).reinterpret(length)
            : MemorySegment.ofArray(array).asSlice(buffer.wrapAdjustment() + offset, length);
    }

    /** Copies {@code source[from, from + count)} to the start of {@code target}. */
    static void write(final float[] source, final int from, final int count, final MemorySegment target) {
        MemorySegment.copy(source, from, target, FLOAT, 0, count);
    }

    /**
     * Stores the floats of {@code frame} as {@code target[at + i] = frame[i]}, or {@code addend[at + i] + frame[i]}
     * when {@code addend} is not null.
     */
    static void store(final MemorySegment frame, final float[] target, final float[] addend, final int at) {
        final int count = (int) (frame.byteSize() / Float.BYTES);
        MemorySegment.copy(frame, FLOAT, 0, target, at, count);
        if (addend != null) {
            for (int i = at, end = at + count; i < end; i++) {
                target[i] += addend[i];
            }
        }
    }
}
