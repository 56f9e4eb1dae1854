package io.rdmareactive.ring;

import org.agrona.concurrent.ringbuffer.RecordDescriptor;

/**
 * Position arithmetic for a ring mirrored into a remote peer, the part Agrona's ring buffers do not offer.
 *
 * <p>A mirrored ring has a power-of-two {@code capacity} (as Agrona's rings do) and is addressed by 64-bit
 * positions that start at 0 and only grow, as Agrona's head and tail do: position {@code p} lives at ring offset
 * {@link #index(long, int) index(p, capacity)} on both sides, so a range of positions committed in the sender's ring
 * is written to the same offsets of the receiver's ring. Records, and therefore every legal position, are aligned to
 * {@link #ALIGNMENT}.
 *
 * <p>Hot path: every method here is branch-light arithmetic that allocates nothing, takes no lock and throws nothing.
 * Checks of untrusted input return a {@link PositionCheck} or a boolean. The capacity is trusted: it must be a power
 * of two of at most {@link RingBuffers#MAX_CAPACITY}, and it is not checked again here. Positions are non-negative;
 * sums such as {@code credited + capacity} overflow only past 2<sup>63</sup> - 2<sup>30</sup> bytes, more than a
 * stream moves in years at full line rate.
 */
public final class RingPositions {

    /** Agrona's record alignment ({@link RecordDescriptor#ALIGNMENT}): every record, and so every position, is a multiple of it. */
    public static final int ALIGNMENT = RecordDescriptor.ALIGNMENT;

    private RingPositions() {
    }

    /**
     * @param position a position
     * @param capacity the ring's capacity, a power of two
     * @return the ring offset of the position, in {@code [0, capacity)}
     */
    public static int index(final long position, final int capacity) {
        return (int) (position & (capacity - 1));
    }

    /**
     * @param position a position
     * @param capacity the ring's capacity, a power of two
     * @return the bytes from the position to the ring's end, in {@code [1, capacity]}
     */
    public static int bytesUntilWrap(final long position, final int capacity) {
        return capacity - index(position, capacity);
    }

    /**
     * Cuts the range {@code [from, to)} at the ring's end into at most two contiguous pieces: from
     * {@code index(from)} towards the ring's end, then, if the range wraps, from offset 0 on.
     *
     * @param from     the first position of the range
     * @param to       the position after the range
     * @param capacity the ring's capacity, a power of two
     * @param into     receives the pieces; overwritten (emptied if the range is not valid)
     * @return false, with {@code into} empty, if {@code to < from} or the range is longer than the ring
     */
    public static boolean split(final long from, final long to, final int capacity, final RingSplit into) {
        final long length = to - from;
        if (to < from || length < 0 || length > capacity) {
            into.set(0, 0, 0, 0, 0);
            return false;
        }
        if (length == 0) {
            into.set(0, 0, 0, 0, 0);
            return true;
        }
        final int offset = index(from, capacity);
        final int untilWrap = capacity - offset;
        if (length <= untilWrap) {
            into.set(1, offset, (int) length, 0, 0);
        } else {
            into.set(2, offset, untilWrap, 0, (int) length - untilWrap);
        }
        return true;
    }

    /**
     * The room a producer has in a mirrored ring: the ring's capacity less what is written but not yet credited.
     *
     * @param producer the producer's position (what it has claimed or written)
     * @param credited the position up to which the consumer has acknowledged the bytes, so they may be written over
     * @param capacity the ring's capacity, a power of two
     * @return the free bytes, in {@code [0, capacity]}; 0 if the positions are inconsistent ({@code credited} past
     * {@code producer}, or {@code producer} more than a ring ahead), so that broken state never yields room
     */
    public static int freeSpace(final long producer, final long credited, final int capacity) {
        final long used = producer - credited;
        if (used < 0 || used > capacity) {
            return 0;
        }
        return capacity - (int) used;
    }

    /**
     * Checks a position that someone, typically an untrusted remote peer, proposes to advance to.
     *
     * @param current  the position so far
     * @param proposed the new position
     * @param limit    the furthest legal position: for credit from the consumer, the position sent to it; for data
     *                 from the producer, the consumer's last returned credit plus the capacity
     * @return {@link PositionCheck#ACCEPTED} if {@code current <= proposed <= limit} and {@code proposed} is a multiple
     * of {@link #ALIGNMENT} (staying put is accepted); otherwise the first check that failed, in the order
     * {@link PositionCheck#BACKWARDS}, {@link PositionCheck#BEYOND_LIMIT}, {@link PositionCheck#MISALIGNED}
     */
    public static PositionCheck checkAdvance(final long current, final long proposed, final long limit) {
        if (proposed < current) {
            return PositionCheck.BACKWARDS;
        }
        if (proposed > limit) {
            return PositionCheck.BEYOND_LIMIT;
        }
        if ((proposed & (ALIGNMENT - 1)) != 0) {
            return PositionCheck.MISALIGNED;
        }
        return PositionCheck.ACCEPTED;
    }

    /**
     * The credit-batching threshold for a ring: return credit once this many bytes are consumed since the last
     * return. Computed once per stream, at setup.
     *
     * <p>A divisor of at least 2 keeps the credit a consumer holds back below half the ring. A sender that waits for
     * room for Agrona's largest record (an eighth of the ring plus its header, at most twice that with the padding at
     * the ring's end) therefore finds it once the consumer has caught up, so batching alone never stalls a stream
     * (for rings of 64 bytes or more).
     *
     * @param capacity the ring's capacity, a power of two from {@link #ALIGNMENT} to {@link RingBuffers#MAX_CAPACITY}
     * @param divisor  the fraction of the ring to batch, as its denominator: 4 returns credit every quarter ring
     * @return {@code capacity / divisor}, but at least {@link #ALIGNMENT} (one record)
     * @throws IllegalArgumentException if the capacity is not valid or the divisor is below 2
     */
    public static int creditThreshold(final int capacity, final int divisor) {
        RingBuffers.checkCapacity(capacity, ALIGNMENT, "mirrored ring");
        if (divisor < 2) {
            throw new IllegalArgumentException("credit divisor " + divisor + " is below 2: a consumer could then hold "
                + "back a whole ring of credit and stall the sender; use 2 or more (4 returns credit every quarter ring)");
        }
        return Math.max(ALIGNMENT, capacity / divisor);
    }

    /**
     * Whether a consumer should return credit now.
     *
     * @param consumed     the position up to which the consumer is done with the ring
     * @param lastReturned the position it last returned as credit
     * @param threshold    from {@link #creditThreshold(int, int)}
     * @return true if at least {@code threshold} bytes were consumed since the last return; after returning
     * {@code consumed}, less than {@code threshold} bytes of credit are ever held back after a check
     */
    public static boolean shouldReturnCredit(final long consumed, final long lastReturned, final int threshold) {
        return consumed - lastReturned >= threshold;
    }
}
