package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;

/**
 * Sends a message larger than one frame as fragments on one stream: the first frame flagged {@link #FIRST}, the
 * last {@link #LAST}, those between neither. When the ring pushes back mid-message, {@link #send()} returns
 * {@link ProtocolStream#BACK_PRESSURED} and carries on from there on the next call. Messages that fit one frame do
 * not come here: they are encoded straight into the ring.
 */
public final class MessageFragmenter {

    /** The first fragment of a message ({@link FrameHeaderFlyweight#FIRST}). */
    public static final byte FIRST = (byte) FrameHeaderFlyweight.FIRST;
    /** The last fragment of a message ({@link FrameHeaderFlyweight#LAST}). */
    public static final byte LAST = (byte) FrameHeaderFlyweight.LAST;
    /** {@link #send()} finished the message. */
    public static final int DONE = 0;

    private final ProtocolStream stream;
    private DirectBuffer message;
    private int offset;
    private int end;
    private boolean first;

    public MessageFragmenter(final ProtocolStream stream) {
        this.stream = stream;
    }

    /** Starts a message; the buffer must stay unchanged until {@link #send()} returns {@link #DONE}. */
    public void begin(final DirectBuffer buffer, final int index, final int length) {
        if (message != null) {
            throw new IllegalStateException("the previous message on stream " + stream.id() + " is not sent yet");
        }
        this.message = buffer;
        this.offset = index;
        this.end = index + length;
        this.first = true;
    }

    /** @return true while a message is partly sent */
    public boolean isSending() {
        return message != null;
    }

    /** @return {@link #DONE}, or {@link ProtocolStream#BACK_PRESSURED} with the rest still to send */
    public int send() {
        final int max = stream.maxPayload();
        while (message != null) {
            final int length = Math.min(max, end - offset);
            final int index = stream.claim(length);
            if (index == ProtocolStream.BACK_PRESSURED) {
                return ProtocolStream.BACK_PRESSURED;
            }
            stream.buffer().putBytes(index, message, offset, length);
            offset += length;
            final boolean last = offset == end;
            stream.commit((byte) ((first ? FIRST : 0) | (last ? LAST : 0)));
            first = false;
            if (last) {
                message = null;
            }
        }
        return DONE;
    }
}
