package io.rdmareactive.ring;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Lays Agrona ring buffers over a region of {@link OffHeapMemory}: allocated memory or a file mapping, so that two
 * mappings of one file (two processes) share one ring.
 *
 * <p>A ring over {@code capacity} bytes occupies {@code [offset, offset + requiredLength(capacity))}: the
 * {@code capacity} bytes of records followed by Agrona's {@link RingBufferDescriptor#TRAILER_LENGTH trailer} (head,
 * tail, correlation counter, consumer heartbeat). Agrona expects the region zeroed when a ring is first used, which
 * fresh {@link OffHeapMemory} is; laying a ring over a region that already holds one attaches to it as it is.
 *
 * <p>The returned ring points into the memory and does not keep it alive: whoever uses the ring must hold the
 * memory open (as its owner, or through an {@link OffHeapMemory#acquire() lease}) for as long as the ring is used.
 */
public final class RingBuffers {

    /** The largest ring capacity: the largest power of two whose ring plus trailer an Agrona buffer can address. */
    public static final int MAX_CAPACITY = 1 << 30;

    /**
     * The alignment Agrona requires of a ring's first byte ({@link AtomicBuffer#verifyAlignment()}: 8 bytes, for its
     * atomic 64-bit positions). A cache-line or page aligned offset is better still: it keeps the trailer's fields on
     * the cache lines Agrona padded them to.
     */
    public static final int OFFSET_ALIGNMENT = AtomicBuffer.ALIGNMENT;

    private RingBuffers() {
    }

    /**
     * @param capacity bytes of records in the ring; a power of two from Agrona's smallest minimum (8) to
     *                 {@link #MAX_CAPACITY}
     * @return the bytes a ring of that capacity occupies: {@code capacity + RingBufferDescriptor.TRAILER_LENGTH}
     * @throws IllegalArgumentException if the capacity is not a power of two or is too large
     */
    public static int requiredLength(final int capacity) {
        checkCapacity(capacity, Math.min(ManyToOneRingBuffer.MIN_CAPACITY, OneToOneRingBuffer.MIN_CAPACITY), "ring");
        return capacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * Lays a ring that many threads write and one thread reads over a region of the memory.
     *
     * @param memory   the memory; not freed
     * @param offset   where the ring starts; a multiple of {@link #OFFSET_ALIGNMENT}
     * @param capacity bytes of records; a power of two from {@link ManyToOneRingBuffer#MIN_CAPACITY} to
     *                 {@link #MAX_CAPACITY}
     * @return an Agrona ring over {@code [offset, offset + requiredLength(capacity))}
     * @throws IllegalArgumentException if the capacity, the offset or the region is not valid; the message says why
     * @throws IllegalStateException    if the memory is already freed
     */
    public static ManyToOneRingBuffer manyToOne(final OffHeapMemory memory, final long offset, final int capacity) {
        return new ManyToOneRingBuffer(region(memory, offset, capacity, ManyToOneRingBuffer.MIN_CAPACITY, "many-to-one ring"));
    }

    /**
     * Lays a ring that one thread writes and one thread reads over a region of the memory.
     *
     * @param memory   the memory; not freed
     * @param offset   where the ring starts; a multiple of {@link #OFFSET_ALIGNMENT}
     * @param capacity bytes of records; a power of two from {@link OneToOneRingBuffer#MIN_CAPACITY} to
     *                 {@link #MAX_CAPACITY}
     * @return an Agrona ring over {@code [offset, offset + requiredLength(capacity))}
     * @throws IllegalArgumentException if the capacity, the offset or the region is not valid; the message says why
     * @throws IllegalStateException    if the memory is already freed
     */
    public static OneToOneRingBuffer oneToOne(final OffHeapMemory memory, final long offset, final int capacity) {
        return new OneToOneRingBuffer(region(memory, offset, capacity, OneToOneRingBuffer.MIN_CAPACITY, "one-to-one ring"));
    }

    private static AtomicBuffer region(
        final OffHeapMemory memory, final long offset, final int capacity, final int minCapacity, final String what) {
        if (memory == null) {
            throw new NullPointerException("memory");
        }
        checkCapacity(capacity, minCapacity, what);
        final int length = capacity + RingBufferDescriptor.TRAILER_LENGTH;
        if (offset < 0 || !BitUtil.isAligned(offset, OFFSET_ALIGNMENT)) {
            throw new IllegalArgumentException(what + " offset " + offset + " is not a non-negative multiple of "
                + OFFSET_ALIGNMENT + " (Agrona's ring alignment): use " + Math.max(0, BitUtil.align(offset, OFFSET_ALIGNMENT))
                + ", or a cache-line or page aligned offset");
        }
        if (offset > memory.length() - length) {
            throw new IllegalArgumentException(what + " of capacity " + capacity + " needs " + length
                + " bytes (capacity + trailer " + RingBufferDescriptor.TRAILER_LENGTH + ") from offset " + offset
                + ", but " + memory + " holds " + memory.length() + " bytes: use a smaller capacity or offset"
                + (offset <= Long.MAX_VALUE - length - PageSize.get()
                ? ", or at least " + PageSize.roundUp(offset + length) + " bytes of memory" : ""));
        }
        if (memory.isFreed()) {
            throw new IllegalStateException(memory + " is freed; lay rings over live memory only");
        }
        return memory.buffer(offset, length);
    }

    static void checkCapacity(final int capacity, final int minCapacity, final String what) {
        if (!BitUtil.isPowerOfTwo(capacity) || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(what + " capacity " + capacity + " is not a power of two up to "
                + MAX_CAPACITY + (capacity > 0 && capacity <= MAX_CAPACITY
                ? ": use " + BitUtil.findNextPositivePowerOfTwo(capacity) : ""));
        }
        if (capacity < minCapacity) {
            throw new IllegalArgumentException(what + " capacity " + capacity + " is below Agrona's minimum of "
                + minCapacity + ": use at least " + minCapacity);
        }
    }
}
