package io.rdmareactive.internal.protocol;

import org.agrona.concurrent.AtomicBuffer;

/** Receives checked frames of a stream in place; the view is valid only during the call. */
@FunctionalInterface
public interface FrameConsumer {

    /**
     * @param buffer the ring
     * @param index  where the frame's payload starts
     * @param length the payload's length
     * @param type   the frame type ({@link ProtocolStream#DATA}, {@link ProtocolStream#COMPLETE},
     *               {@link ProtocolStream#ERROR})
     * @param flags  the frame flags
     */
    void onFrame(AtomicBuffer buffer, int index, int length, short type, byte flags);
}
