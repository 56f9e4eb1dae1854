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
public final class RequestNFlyweight {

    /** Offset of the stream id (int). */
    public static final int STREAM_ID_OFFSET = FrameHeaderFlyweight.HEADER_LENGTH;
    /** Offset of the use of the stream the demand belongs to (int). */
    public static final int USE_OFFSET = STREAM_ID_OFFSET + Integer.BYTES;
    /** Offset of n (long). */
    public static final int N_OFFSET = USE_OFFSET + Integer.BYTES;
    /** The frame length of every REQUEST_N frame. */
    public static final int LENGTH = N_OFFSET + Long.BYTES;

    private DirectBuffer buffer;
    private int offset;

    /**
     * @param buffer the buffer (a {@link MutableDirectBuffer} to write)
     * @param offset the frame's first byte (its header)
     * @return this
     */
    public RequestNFlyweight wrap(final DirectBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return the wrapped buffer */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** @return the offset of the frame in the wrapped buffer */
    public int offset() {
        return offset;
    }

    /**
     * Writes the whole frame: header ({@link #LENGTH}, {@link FrameHeaderFlyweight#REQUEST_N}, no flags) and body.
     *
     * @param streamId the stream's slot
     * @param use      the use of the stream the demand belongs to, &gt;= 0
     * @param n        the demand to add, &gt; 0
     * @return this
     */
    public RequestNFlyweight write(final int streamId, final int use, final long n) {
        final MutableDirectBuffer out = (MutableDirectBuffer) buffer;
        FrameHeaderFlyweight.write(out, offset, LENGTH, FrameHeaderFlyweight.REQUEST_N, 0);
        out.putInt(offset + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
        out.putInt(offset + USE_OFFSET, use, BYTE_ORDER);
        out.putLong(offset + N_OFFSET, n, BYTE_ORDER);
        return this;
    }

    /** @return the stream id */
    public int streamId() {
        return buffer.getInt(offset + STREAM_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * @param streamId the stream's slot
     * @return this
     */
    public RequestNFlyweight streamId(final int streamId) {
        ((MutableDirectBuffer) buffer).putInt(offset + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
        return this;
    }

    /** @return the use of the stream the demand belongs to */
    public int use() {
        return buffer.getInt(offset + USE_OFFSET, BYTE_ORDER);
    }

    /**
     * @param use the use of the stream the demand belongs to, &gt;= 0
     * @return this
     */
    public RequestNFlyweight use(final int use) {
        ((MutableDirectBuffer) buffer).putInt(offset + USE_OFFSET, use, BYTE_ORDER);
        return this;
    }

    /** @return the demand to add */
    public long n() {
        return buffer.getLong(offset + N_OFFSET, BYTE_ORDER);
    }

    /**
     * @param n the demand to add, &gt; 0
     * @return this
     */
    public RequestNFlyweight n(final long n) {
        ((MutableDirectBuffer) buffer).putLong(offset + N_OFFSET, n, BYTE_ORDER);
        return this;
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
        final int code = FrameCheck.exactLength(buffer, index, frameLength, LENGTH);
        if (code != FrameCheck.OK) {
            return code;
        }
        final int streamId = buffer.getInt(index + STREAM_ID_OFFSET, BYTE_ORDER);
        if (streamId < 0 || streamId >= maxStreams) {
            return FrameCheck.BAD_STREAM_ID;
        }
        if (buffer.getInt(index + USE_OFFSET, BYTE_ORDER) < 0) {
            return FrameCheck.BAD_USE;
        }
        if (buffer.getLong(index + N_OFFSET, BYTE_ORDER) <= 0) {
            return FrameCheck.BAD_REQUEST_N;
        }
        return FrameCheck.OK;
    }
}
