package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;

/**
 * Sees every frame of a connection where each direction passes once: a frame sent when its producer commits it
 * ({@link StreamSendRing#commit}), a frame received when its consumer is handed it ({@link StreamReceiveRing#poll}),
 * the control stream's frames included. A connection without one (the default) pays one null check per frame.
 * Called on the producer's and the consumer's threads, so an implementation is thread-safe; it only reads the
 * frame, and must not keep the buffer.
 */
public interface FrameTap {

    /**
     * @param stream        the stream whose ring the frame is in (0: the control stream)
     * @param type          the frame type ({@link FrameHeaderFlyweight#DATA} ..)
     * @param flags         the header's flags
     * @param buffer        the ring's memory
     * @param payloadIndex  where the payload begins (the header is {@link FrameHeaderFlyweight#HEADER_LENGTH} before)
     * @param payloadLength the payload's bytes
     */
    void sent(int stream, short type, byte flags, DirectBuffer buffer, int payloadIndex, int payloadLength);

    /** A frame arrived and is handed to its consumer; the parameters as {@link #sent}'s. */
    void received(int stream, short type, byte flags, DirectBuffer buffer, int payloadIndex, int payloadLength);
}
