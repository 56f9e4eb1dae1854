package io.rdmareactive.internal.protocol;

import org.agrona.MutableDirectBuffer;

/**
 * One stream of a connection: its send ring (one producer thread at a time) and its receive ring (one consumer
 * thread at a time).
 */
public final class ProtocolStream {

    /** {@link #claim(int)} found no room: the peer has not consumed enough yet. */
    public static final int BACK_PRESSURED = StreamSendRing.BACK_PRESSURED;
    /** Flags of a whole message in one frame. */
    public static final byte WHOLE = (byte) 0xC0;

    private final int id;
    private final StreamSendRing sendRing;
    private final StreamReceiveRing receiveRing;

    ProtocolStream(final int id, final StreamSendRing sendRing, final StreamReceiveRing receiveRing) {
        this.id = id;
        this.sendRing = sendRing;
        this.receiveRing = receiveRing;
    }

    public int id() {
        return id;
    }

    StreamSendRing sendRing() {
        return sendRing;
    }

    StreamReceiveRing receiveRing() {
        return receiveRing;
    }

    /** @return the largest payload of one frame */
    public int maxPayload() {
        return sendRing.maxPayload();
    }

    /** @return where to write the claimed payload, or {@link #BACK_PRESSURED} */
    public int claim(final int payloadLength) {
        return sendRing.claim(payloadLength);
    }

    /** @return the memory the claimed payload is written into (registered memory) */
    public MutableDirectBuffer buffer() {
        return sendRing.buffer();
    }

    /** Publishes the claimed DATA frame. */
    public void commit(final byte flags) {
        sendRing.commit(FrameTypes.DATA, flags);
    }

    /** Gives the claimed room back. */
    public void abort() {
        sendRing.abort();
    }

    /**
     * Hands the next received frame to the consumer, in place.
     *
     * @return true if a frame was handed over
     */
    public boolean poll(final StreamReceiveRing.FrameConsumer consumer) {
        return receiveRing.poll(consumer);
    }
}
