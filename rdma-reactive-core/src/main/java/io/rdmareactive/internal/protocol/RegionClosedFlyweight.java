package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;

/**
 * REGION_CLOSED: the sender closed one of the regions it registered on the connection, so the descriptors of that
 * generation are stale; the receiver refuses its own later operations on the region before posting them, instead of
 * letting the peer's adapter refuse them (which would end the connection). Travels on the control stream.
 * Little-endian; byte offsets from the frame's start on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Frame Length = 16                        |  0
 *  +-------------------------------+---------------+---------------+
 *  |      Type = REGION_CLOSED     |   Flags = 0   |  Reserved = 0 |  4
 *  +-------------------------------+---------------+---------------+
 *  |                     Generation (positive)                     |  8
 *  +---------------------------------------------------------------+
 *  |                          Reserved = 0                         | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RegionClosedFlyweight extends FrameFlyweight<RegionClosedFlyweight> {

    /** Offset of the region's generation (int). */
    public static final int GENERATION_OFFSET = FrameHeaderFlyweight.HEADER_LENGTH;
    /** Offset of the reserved word (int), which must be 0. */
    public static final int RESERVED_OFFSET = GENERATION_OFFSET + Integer.BYTES;
    /** The frame length of every REGION_CLOSED frame. */
    public static final int LENGTH = RESERVED_OFFSET + Integer.BYTES;

    /**
     * Writes the whole frame.
     *
     * @param generation the closed region's generation, positive
     * @return this
     */
    public RegionClosedFlyweight write(final int generation) {
        return header(LENGTH, FrameHeaderFlyweight.REGION_CLOSED, 0).putInt(GENERATION_OFFSET, generation)
            .putInt(RESERVED_OFFSET, 0);
    }

    /** @return the closed region's generation */
    public int generation() {
        return getInt(GENERATION_OFFSET);
    }

    /**
     * Checks the body of a REGION_CLOSED frame whose header passed {@link FrameHeaderFlyweight#check}: the length is
     * exactly {@link #LENGTH}, the generation positive and the reserved word zero. Reads only
     * {@code [index, index + frameLength)} and only once the length is right; never throws.
     *
     * @return a {@link FrameCheck} code
     */
    public static int check(final DirectBuffer buffer, final int index, final int frameLength) {
        final int code = FrameCheck.exactLength(buffer, index, frameLength, LENGTH);
        if (code != FrameCheck.OK) {
            return code;
        }
        if (buffer.getInt(index + GENERATION_OFFSET, BYTE_ORDER) <= 0
            || buffer.getInt(index + RESERVED_OFFSET, BYTE_ORDER) != 0) {
            return FrameCheck.BAD_GENERATION;
        }
        return FrameCheck.OK;
    }
}
