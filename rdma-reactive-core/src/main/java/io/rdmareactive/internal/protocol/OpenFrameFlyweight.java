package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * OPEN: a stream opens in one of the four interaction models. Little-endian; byte offsets from the frame's start on
 * the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Frame Length = 32                        |  0
 *  +-------------------------------+---------------+---------------+
 *  |           Type = OPEN         |   Flags = 0   |  Reserved = 0 |  4
 *  +-------------------------------+---------------+---------------+
 *  |                           Stream Id                           |  8
 *  +---------------------------------------------------------------+
 *  |                     Kind (1, 2, 3 or 4)                       | 12
 *  +---------------------------------------------------------------+
 *  |                                                               | 16
 *  +                      Initial Request N                        +
 *  |                                                               | 20
 *  +---------------------------------------------------------------+
 *  |                                                               | 24
 *  +                        Correlation Id                         +
 *  |                                                               | 28
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Kind: {@link #FIRE_AND_FORGET}, {@link #REQUEST_RESPONSE}, {@link #REQUEST_STREAM} or {@link #CHANNEL}, as
 * RSocket names them. Initial request n (long, &gt;= 0): the demand the opener grants at once, before any
 * REQUEST_N. The correlation id is the opener's, echoed in whatever answers it.
 *
 * <p>A flyweight over the whole frame, header included: wrap it at the frame's first byte. No allocation, no
 * exception on a well-formed call; writers must wrap a {@link MutableDirectBuffer}.
 */
public final class OpenFrameFlyweight extends StreamFrameFlyweight<OpenFrameFlyweight> {

    /** Offset of the interaction kind (int). */
    public static final int KIND_OFFSET = STREAM_ID_OFFSET + Integer.BYTES;
    /** Offset of the initial request n (long). */
    public static final int INITIAL_REQUEST_N_OFFSET = KIND_OFFSET + Integer.BYTES;
    /** Offset of the correlation id (long). */
    public static final int CORRELATION_ID_OFFSET = INITIAL_REQUEST_N_OFFSET + Long.BYTES;
    /** The frame length of every OPEN frame. */
    public static final int LENGTH = CORRELATION_ID_OFFSET + Long.BYTES;

    /** One message, no answer. */
    public static final int FIRE_AND_FORGET = 1;
    /**
     * A call stream: many request/response calls, each a message one way and its answer back, named by a call id
     * ({@link CallHeaderFlyweight}); open while the opener keeps calling.
     */
    public static final int REQUEST_RESPONSE = 2;
    /** One message, a stream of answers. */
    public static final int REQUEST_STREAM = 3;
    /** A stream each way. */
    public static final int CHANNEL = 4;

    /**
     * Writes the whole frame: header ({@link #LENGTH}, {@link FrameHeaderFlyweight#OPEN}, no flags) and body.
     *
     * @param streamId         the stream's slot
     * @param kind             {@link #FIRE_AND_FORGET} .. {@link #CHANNEL}
     * @param initialRequestN  the demand granted at once, &gt;= 0
     * @param correlationId    the opener's correlation id
     * @return this
     */
    public OpenFrameFlyweight write(final int streamId, final int kind, final long initialRequestN,
                                   final long correlationId) {
        return header(LENGTH, FrameHeaderFlyweight.OPEN, 0).streamId(streamId).kind(kind)
            .initialRequestN(initialRequestN).correlationId(correlationId);
    }

    /** @return the interaction kind */
    public int kind() {
        return getInt(KIND_OFFSET);
    }

    /**
     * @param kind {@link #FIRE_AND_FORGET} .. {@link #CHANNEL}
     * @return this
     */
    public OpenFrameFlyweight kind(final int kind) {
        return putInt(KIND_OFFSET, kind);
    }

    /** @return the demand granted at once */
    public long initialRequestN() {
        return getLong(INITIAL_REQUEST_N_OFFSET);
    }

    /**
     * @param initialRequestN the demand granted at once, &gt;= 0
     * @return this
     */
    public OpenFrameFlyweight initialRequestN(final long initialRequestN) {
        return putLong(INITIAL_REQUEST_N_OFFSET, initialRequestN);
    }

    /** @return the opener's correlation id */
    public long correlationId() {
        return getLong(CORRELATION_ID_OFFSET);
    }

    /**
     * @param correlationId the opener's correlation id
     * @return this
     */
    public OpenFrameFlyweight correlationId(final long correlationId) {
        return putLong(CORRELATION_ID_OFFSET, correlationId);
    }

    /**
     * @param kind an interaction kind
     * @return true for {@link #FIRE_AND_FORGET} .. {@link #CHANNEL}
     */
    public static boolean isKnownKind(final int kind) {
        return kind >= FIRE_AND_FORGET && kind <= CHANNEL;
    }

    /**
     * Checks the body of an OPEN frame whose header passed {@link FrameHeaderFlyweight#check}: the length is exactly
     * {@link #LENGTH}, the stream id is in {@code [0, maxStreams)}, the kind is known and the initial request n is not
     * negative. Reads only {@code [index, index + frameLength)} and only once the length is right; never throws.
     *
     * @param buffer      the buffer holding the frame
     * @param index       the frame's first byte
     * @param frameLength the frame length from its header
     * @param maxStreams  the number of stream slots of the connection
     * @return a {@link FrameCheck} code
     */
    public static int check(final DirectBuffer buffer, final int index, final int frameLength, final int maxStreams) {
        final int code = checkLengthAndStream(buffer, index, frameLength, LENGTH, maxStreams);
        if (code != FrameCheck.OK) {
            return code;
        }
        if (!isKnownKind(buffer.getInt(index + KIND_OFFSET, BYTE_ORDER))) {
            return FrameCheck.BAD_KIND;
        }
        if (buffer.getLong(index + INITIAL_REQUEST_N_OFFSET, BYTE_ORDER) < 0) {
            return FrameCheck.BAD_REQUEST_N;
        }
        return FrameCheck.OK;
    }
}
