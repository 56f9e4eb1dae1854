package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Flyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;

/**
 * The base of the flyweights over the frames that name a stream: OPEN, REQUEST_N, CANCEL, COMPLETE, CLOSE and ERROR,
 * whose body starts with the stream id (int) right after the header. It holds that field and its check.
 *
 * @param <T> the flyweight itself
 */
public abstract class StreamFrameFlyweight<T extends StreamFrameFlyweight<T>> extends FrameFlyweight<T> {

    /** Offset of the stream id (int), the first field after the header. */
    public static final int STREAM_ID_OFFSET = FrameHeaderFlyweight.HEADER_LENGTH;

    StreamFrameFlyweight() {
    }

    /** @return the stream id */
    public final int streamId() {
        return getInt(STREAM_ID_OFFSET);
    }

    /**
     * @param streamId the stream's slot
     * @return this
     */
    public final T streamId(final int streamId) {
        return putInt(STREAM_ID_OFFSET, streamId);
    }

    /**
     * The common first steps of the body checks of the fixed-length frames that name a stream: exactly {@code length}
     * bytes inside the buffer ({@link FrameCheck#exactLength}), then a stream id in {@code [0, maxStreams)}. Reads the stream id
     * only once the length is right; never throws.
     *
     * @return a {@link FrameCheck} code
     */
    static int checkLengthAndStream(final DirectBuffer buffer, final int index, final int frameLength,
                                    final int length, final int maxStreams) {
        final int code = FrameCheck.exactLength(buffer, index, frameLength, length);
        return code != FrameCheck.OK ? code : checkStream(buffer, index, maxStreams);
    }

    /**
     * @return {@link FrameCheck#BAD_STREAM_ID} unless the frame at {@code index}, already known to lie inside the
     *     buffer, names a stream in {@code [0, maxStreams)}; {@link FrameCheck#OK} if it does
     */
    static int checkStream(final DirectBuffer buffer, final int index, final int maxStreams) {
        final int streamId = buffer.getInt(index + STREAM_ID_OFFSET, BYTE_ORDER);
        return streamId < 0 || streamId >= maxStreams ? FrameCheck.BAD_STREAM_ID : FrameCheck.OK;
    }
}
