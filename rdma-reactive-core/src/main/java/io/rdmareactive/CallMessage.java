package io.rdmareactive;

import org.agrona.MutableDirectBuffer;

/**
 * A message of a call stream ({@link CallStreamEnd}): a call or its cancel on the opener's side, an answer on the
 * serving side. The stream's send encodes it on the loop: {@link #prepare} decides its type and body length right
 * before, {@link #writeBody} writes the body, {@link #written} follows at once (no user code there), and
 * {@link #afterWrite} later, in a task of the loop, for what may run user code.
 */
abstract class CallMessage {

    /** The call id it is sent with (loop). */
    int callId;
    /** The type the header gets ({@link io.rdmareactive.internal.protocol.CallHeaderFlyweight}), set by prepare. */
    int type;
    /** The body's length, set by prepare. */
    int bodyLength;

    /**
     * Decides the type and body length (loop), right before the message is encoded; calls the message's codec for its
     * length, and catches what it throws.
     *
     * @param maxBody the longest body the connection carries
     */
    abstract void prepare(int maxBody);

    /** Writes the body of {@link #bodyLength} bytes (loop); may throw, if a codec fails. */
    abstract void writeBody(MutableDirectBuffer buffer, int offset);

    /**
     * The body could not be written (loop).
     *
     * @return the type the header gets instead
     */
    abstract int bodyFailed(RuntimeException error);

    /** The message was encoded with {@code writtenType} (loop, inside the send's encode: no user code). */
    abstract void written(int writtenType);

    /** Runs after {@link #written}, in a task of the loop, if {@code written} asked for it. */
    void afterWrite() {
    }
}
