package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Turns the frames of one stream back into messages: a whole message is handed on in place, in the ring; fragments
 * are gathered in a buffer of this stream that grows up to the connection's maximum message length (allocated once
 * it is needed, then reused). A fragment out of order, or a message over the maximum, is a protocol error.
 */
public final class MessageAssembler implements FrameConsumer {

    /** Receives whole messages; the view is valid only during the call. */
    @FunctionalInterface
    public interface MessageHandler {
        void onMessage(DirectBuffer buffer, int index, int length);
    }

    private final int maxMessageLength;
    private final MessageHandler handler;
    private ExpandableDirectByteBuffer gathered;
    private int gatheredLength = -1;
    private String error;

    public MessageAssembler(final int maxMessageLength, final MessageHandler handler) {
        this.maxMessageLength = maxMessageLength;
        this.handler = handler;
    }

    /** @return the protocol error seen, or null */
    public String error() {
        return error;
    }

    @Override
    public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                        final byte flags) {
        if (error != null || type != FrameHeaderFlyweight.DATA) {
            return;
        }
        final boolean first = (flags & FrameHeaderFlyweight.FIRST) != 0;
        final boolean last = (flags & FrameHeaderFlyweight.LAST) != 0;
        if (first && last && gatheredLength < 0) {
            handler.onMessage(buffer, index, length);
            return;
        }
        if (first == (gatheredLength >= 0)) {
            error = first ? "a message began before the previous one ended" : "a fragment arrived outside a message";
            return;
        }
        if (first) {
            gatheredLength = 0;
        }
        if ((long) gatheredLength + length > maxMessageLength) {
            error = "a message grew past the maximum of " + maxMessageLength + " bytes";
            return;
        }
        if (gathered == null) {
            gathered = new ExpandableDirectByteBuffer(Math.max(length * 2, 4096));
        }
        gathered.putBytes(gatheredLength, buffer, index, length);
        gatheredLength += length;
        if (last) {
            final int messageLength = gatheredLength;
            gatheredLength = -1;
            handler.onMessage(gathered, 0, messageLength);
        }
    }
}
