package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * REQUEST_N: more demand for a stream. Little-endian; byte offsets from the frame's start on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Frame Length = 24                        |  0
 *  +-------------------------------+---------------+---------------+
 *  |         Type = REQUEST_N      |   Flags = 0   |  Reserved = 0 |  4
 *  +-------------------------------+---------------+---------------+
 *  |                           Stream Id                           |  8
 *  +---------------------------------------------------------------+
 *  |                              Use                              | 12
 *  +---------------------------------------------------------------+
 *  |                                                               | 16
 *  +                               N                               +
 *  |                                                               | 20
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>{@code N} (long, &gt; 0) is demand added to what the stream's sender was granted before: the receiver of this
 * frame adds it to its running total (saturating at {@link Long#MAX_VALUE}, which means unbounded, as in Reactive
 * Streams). The stream id is the stream's slot number. {@code Use} (int, &gt;= 0) says which use of the stream the
 * demand belongs to: both sides count the OPEN frames of a stream (0 before the first), so a late REQUEST_N of a
 * request that has ended never grants demand to the next request on the same slot.
 *
 * <p>A flyweight over the whole frame, header included: wrap it at the frame's first byte. No allocation, no
 * exception on a well-formed call; writers must wrap a {@link MutableDirectBuffer}.
 */
public final class RequestNFlyweight extends StreamUseFrameFlyweight<RequestNFlyweight> {

    /** Offset of n (long). */
    public static final int N_OFFSET = USE_OFFSET + Integer.BYTES;
    /** The frame length of every REQUEST_N frame. */
    public static final int LENGTH = N_OFFSET + Long.BYTES;

    /**
     * Writes the whole frame: header ({@link #LENGTH}, {@link FrameHeaderFlyweight#REQUEST_N}, no flags) and body.
     *
     * @param streamId the stream's slot
     * @param use      the use of the stream the demand belongs to, &gt;= 0
     * @param n        the demand to add, &gt; 0
     * @return this
     */
    public RequestNFlyweight write(final int streamId, final int use, final long n) {
        return header(LENGTH, FrameHeaderFlyweight.REQUEST_N, 0).streamId(streamId).use(use).n(n);
    }

    /** @return the demand to add */
    public long n() {
        return getLong(N_OFFSET);
    }

    /**
     * @param n the demand to add, &gt; 0
     * @return this
     */
    public RequestNFlyweight n(final long n) {
        return putLong(N_OFFSET, n);
    }

    /**
     * Checks the body of a REQUEST_N frame whose header passed {@link FrameHeaderFlyweight#check}: the length is
     * exactly {@link #LENGTH}, the stream id is in {@code [0, maxStreams)}, the use is not negative and n &gt; 0. Reads
     * only {@code [index, index + frameLength)} and only once the length is right; never throws.
     *
     * @param buffer      the buffer holding the frame
     * @param index       the frame's first byte
     * @param frameLength the frame length from its header
     * @param maxStreams  the number of stream slots of the connection
     * @return a {@link FrameCheck} code
     */
    public static int check(final DirectBuffer buffer, final int index, final int frameLength, final int maxStreams) {
        final int code = checkLengthStreamAndUse(buffer, index, frameLength, LENGTH, maxStreams);
        if (code != FrameCheck.OK) {
            return code;
        }
        if (buffer.getLong(index + N_OFFSET, BYTE_ORDER) <= 0) {
            return FrameCheck.BAD_REQUEST_N;
        }
        return FrameCheck.OK;
    }
}
