package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * KEEPALIVE: liveness, for the connection rather than a stream. Little-endian; byte offsets from the frame's start
 * on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Frame Length = 24                        |  0
 *  +-------------------------------+---------------+---------------+
 *  |        Type = KEEPALIVE       |   Flags = 0   |  Reserved = 0 |  4
 *  +-------------------------------+---------------+---------------+
 *  |                                                               |  8
 *  +                        Timestamp Nanos                        +
 *  |                                                               | 12
 *  +---------------------------------------------------------------+
 *  |                                                               | 16
 *  +                    Last Received Position                     +
 *  |                                                               | 20
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The timestamp is the sender's {@code System.nanoTime()}: informational only, since the two clocks share no
 * origin (an echo of it lets the sender measure a round trip). The last received position (&gt;= 0) is how far the
 * sender has received, for diagnostics.
 *
 * <p>A flyweight over the whole frame, header included: wrap it at the frame's first byte. No allocation, no
 * exception on a well-formed call; writers must wrap a {@link MutableDirectBuffer}.
 */
public final class KeepaliveFlyweight extends FrameFlyweight<KeepaliveFlyweight> {

    /** Offset of the sender's timestamp (long). */
    public static final int TIMESTAMP_NANOS_OFFSET = FrameHeaderFlyweight.HEADER_LENGTH;
    /** Offset of the last received position (long). */
    public static final int LAST_RECEIVED_POSITION_OFFSET = TIMESTAMP_NANOS_OFFSET + Long.BYTES;
    /** The frame length of every KEEPALIVE frame. */
    public static final int LENGTH = LAST_RECEIVED_POSITION_OFFSET + Long.BYTES;

    /**
     * Writes the whole frame: header ({@link #LENGTH}, {@link FrameHeaderFlyweight#KEEPALIVE}, no flags) and body.
     *
     * @param timestampNanos       the sender's clock
     * @param lastReceivedPosition how far the sender has received, &gt;= 0
     * @return this
     */
    public KeepaliveFlyweight write(final long timestampNanos, final long lastReceivedPosition) {
        return header(LENGTH, FrameHeaderFlyweight.KEEPALIVE, 0).timestampNanos(timestampNanos)
            .lastReceivedPosition(lastReceivedPosition);
    }

    /** @return the sender's clock when it wrote the frame */
    public long timestampNanos() {
        return getLong(TIMESTAMP_NANOS_OFFSET);
    }

    /**
     * @param timestampNanos the sender's clock
     * @return this
     */
    public KeepaliveFlyweight timestampNanos(final long timestampNanos) {
        return putLong(TIMESTAMP_NANOS_OFFSET, timestampNanos);
    }

    /** @return how far the sender has received */
    public long lastReceivedPosition() {
        return getLong(LAST_RECEIVED_POSITION_OFFSET);
    }

    /**
     * @param lastReceivedPosition how far the sender has received, &gt;= 0
     * @return this
     */
    public KeepaliveFlyweight lastReceivedPosition(final long lastReceivedPosition) {
        return putLong(LAST_RECEIVED_POSITION_OFFSET, lastReceivedPosition);
    }

    /**
     * Checks the body of a KEEPALIVE frame whose header passed {@link FrameHeaderFlyweight#check}: the length is
     * exactly {@link #LENGTH} and the last received position is not negative (the timestamp may be anything). Reads
     * only {@code [index, index + frameLength)} and only once the length is right; never throws.
     *
     * @param buffer      the buffer holding the frame
     * @param index       the frame's first byte
     * @param frameLength the frame length from its header
     * @return a {@link FrameCheck} code
     */
    public static int check(final DirectBuffer buffer, final int index, final int frameLength) {
        final int code = FrameCheck.exactLength(buffer, index, frameLength, LENGTH);
        if (code != FrameCheck.OK) {
            return code;
        }
        if (buffer.getLong(index + LAST_RECEIVED_POSITION_OFFSET, BYTE_ORDER) < 0) {
            return FrameCheck.BAD_POSITION;
        }
        return FrameCheck.OK;
    }
}
