package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Flyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;

/**
 * The base of the flyweights over the frames about one use of one stream: REQUEST_N, CANCEL, COMPLETE and CLOSE,
 * whose body starts with the stream id and then the use (int, &gt;= 0). Both sides count the OPEN frames of a stream
 * (0 before the first), so a late signal of a request that has ended never reaches the next request on the same slot.
 * It holds the use field and its check.
 *
 * @param <T> the flyweight itself
 */
public abstract class StreamUseFrameFlyweight<T extends StreamUseFrameFlyweight<T>> extends StreamFrameFlyweight<T> {

    /** Offset of the use of the stream the frame belongs to (int). */
    public static final int USE_OFFSET = STREAM_ID_OFFSET + Integer.BYTES;

    StreamUseFrameFlyweight() {
    }

    /** @return the use of the stream the frame belongs to */
    public final int use() {
        return getInt(USE_OFFSET);
    }

    /**
     * @param use the use of the stream the frame belongs to, &gt;= 0
     * @return this
     */
    public final T use(final int use) {
        return putInt(USE_OFFSET, use);
    }

    /**
     * The common first steps of the body checks of these frames: exactly {@code length} bytes inside the buffer, a
     * stream id in {@code [0, maxStreams)} ({@link #checkLengthAndStream}), then a use that is not negative
     * ({@link FrameCheck#BAD_USE}). Reads the fields only once the length is right; never throws.
     *
     * @return a {@link FrameCheck} code
     */
    static int checkLengthStreamAndUse(final DirectBuffer buffer, final int index, final int frameLength,
                                       final int length, final int maxStreams) {
        final int code = checkLengthAndStream(buffer, index, frameLength, length, maxStreams);
        if (code != FrameCheck.OK) {
            return code;
        }
        return buffer.getInt(index + USE_OFFSET, BYTE_ORDER) < 0 ? FrameCheck.BAD_USE : FrameCheck.OK;
    }
}
