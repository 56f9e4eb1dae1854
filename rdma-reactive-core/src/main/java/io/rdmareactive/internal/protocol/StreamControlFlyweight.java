package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * CANCEL, COMPLETE and CLOSE: a signal about one use of one stream, with nothing but the stream id and the use.
 * Little-endian; byte offsets from the frame's start on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Frame Length = 16                        |  0
 *  +-------------------------------+---------------+---------------+
 *  | Type = CANCEL|COMPLETE|CLOSE  |   Flags = 0   |  Reserved = 0 |  4
 *  +-------------------------------+---------------+---------------+
 *  |                           Stream Id                           |  8
 *  +---------------------------------------------------------------+
 *  |                              Use                              | 12
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>{@code Use} (int, &gt;= 0) says which use of the stream the signal belongs to: both sides count the OPEN frames
 * of a stream (0 before the first), so a late CANCEL of a request that has ended never cancels the next request on the
 * same slot, and a COMPLETE can be matched to the request it ends.
 *
 * <p>A flyweight over the whole frame, header included: wrap it at the frame's first byte. No allocation, no
 * exception on a well-formed call; writers must wrap a {@link MutableDirectBuffer}.
 */
public final class StreamControlFlyweight extends StreamUseFrameFlyweight<StreamControlFlyweight> {

    /** The frame length of every CANCEL, COMPLETE and CLOSE frame. */
    public static final int LENGTH = USE_OFFSET + Integer.BYTES;

    /**
     * Writes the whole frame: header ({@link #LENGTH}, the type, no flags) and body.
     *
     * @param type     {@link FrameHeaderFlyweight#CANCEL}, {@link FrameHeaderFlyweight#COMPLETE} or
     *                 {@link FrameHeaderFlyweight#CLOSE}
     * @param streamId the stream's slot
     * @param use      the use of the stream the signal belongs to, &gt;= 0
     * @return this
     */
    public StreamControlFlyweight write(final short type, final int streamId, final int use) {
        assert type == FrameHeaderFlyweight.CANCEL || type == FrameHeaderFlyweight.COMPLETE
            || type == FrameHeaderFlyweight.CLOSE : type;
        return header(LENGTH, type, 0).streamId(streamId).use(use);
    }

    /**
     * Checks the body of a CANCEL, COMPLETE or CLOSE frame whose header passed {@link FrameHeaderFlyweight#check}:
     * the length is exactly {@link #LENGTH}, the stream id is in {@code [0, maxStreams)} and the use is not negative.
     * Reads only {@code [index, index + frameLength)} and only once the length is right; never throws.
     *
     * @param buffer      the buffer holding the frame
     * @param index       the frame's first byte
     * @param frameLength the frame length from its header
     * @param maxStreams  the number of stream slots of the connection
     * @return a {@link FrameCheck} code
     */
    public static int check(final DirectBuffer buffer, final int index, final int frameLength, final int maxStreams) {
        return checkLengthStreamAndUse(buffer, index, frameLength, LENGTH, maxStreams);
    }
}
