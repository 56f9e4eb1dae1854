package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Random;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Buffers of every kind a codec may meet, filled with a canary so stray writes show. */
final class TestBuffers {

    static final byte CANARY = (byte) 0xA5;

    private TestBuffers() {
    }

    enum Kind {
        /** UnsafeBuffer over a whole byte[]. */
        HEAP,
        /** UnsafeBuffer over a direct ByteBuffer: off-heap, like registered memory. */
        OFF_HEAP,
        /** UnsafeBuffer over the middle of a larger byte[] (non-zero wrap adjustment). */
        HEAP_SLICE,
        /** Agrona's expandable heap buffer, at exactly the requested capacity. */
        EXPANDABLE_ARRAY;

        MutableDirectBuffer allocate(final int capacity) {
            final MutableDirectBuffer buffer = switch (this) {
                case HEAP -> new UnsafeBuffer(new byte[capacity]);
                case OFF_HEAP -> new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
                case HEAP_SLICE -> new UnsafeBuffer(new byte[capacity + 24], 11, capacity);
                case EXPANDABLE_ARRAY -> new ExpandableArrayBuffer(capacity);
            };
            fill(buffer);
            return buffer;
        }
    }

    static void fill(final MutableDirectBuffer buffer) {
        buffer.setMemory(0, buffer.capacity(), CANARY);
    }

    /** Asserts every byte of {@code buffer} outside {@code [from, to)} is still the canary. */
    static void assertCanaryOutside(final DirectBuffer buffer, final int from, final int to) {
        assertCanary(buffer, 0, from);
        assertCanary(buffer, to, buffer.capacity());
    }

    static void assertCanary(final DirectBuffer buffer, final int from, final int to) {
        for (int i = from; i < to; i++) {
            if (buffer.getByte(i) != CANARY) {
                throw new AssertionError("byte " + i + " was overwritten with " + buffer.getByte(i)
                    + " (canary expected in [" + from + ", " + to + "), capacity " + buffer.capacity() + ")");
            }
        }
    }

    static byte[] bytesOf(final DirectBuffer buffer, final int offset, final int length) {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes, 0, length);
        return bytes;
    }

    static byte[] bytesOf(final DirectBuffer buffer) {
        return bytesOf(buffer, 0, buffer.capacity());
    }

    static byte[] randomBytes(final int size, final long seed) {
        final byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** An UnsafeBuffer over exactly {@code [offset, offset + length)}: any access past it fails Agrona's checks. */
    static UnsafeBuffer exactView(final DirectBuffer buffer, final int offset, final int length) {
        return new UnsafeBuffer(buffer, offset, length);
    }

    static void assertBoundsChecksOn() {
        assertThat(DirectBuffer.SHOULD_BOUNDS_CHECK)
            .as("Agrona bounds checks must be on (-D%s=false) or reads past a view go unnoticed",
                DirectBuffer.DISABLE_BOUNDS_CHECKS_PROP_NAME)
            .isTrue();
    }
}
