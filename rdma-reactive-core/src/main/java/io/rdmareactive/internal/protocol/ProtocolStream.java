package io.rdmareactive.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.MutableDirectBuffer;

/**
 * One stream of a connection: its send ring (one producer thread at a time) and its receive ring (one consumer
 * thread at a time), and its message credit: the consumer's {@link #request(long)} reaches the peer as REQUEST_N,
 * and the peer's requests become {@link #peerDemand()}, the most the producer may ask its upstream for.
 */
public final class ProtocolStream {

    /** {@link #claim(int)} found no room: the peer has not consumed enough yet. */
    public static final int BACK_PRESSURED = StreamSendRing.BACK_PRESSURED;
    /** Frame types a consumer sees. */
    public static final short DATA = FrameTypes.DATA;
    public static final short COMPLETE = FrameTypes.COMPLETE;
    public static final short ERROR = FrameTypes.ERROR;
    /** Flags of a whole message in one frame. */
    public static final byte WHOLE = (byte) 0xC0;

    private final int id;
    private final StreamSendRing sendRing;
    private final StreamReceiveRing receiveRing;
    /** Messages this side's consumer asked for and the driver has not yet told the peer. */
    private final AtomicLong requested = new AtomicLong();
    /** Messages the peer's consumer asked for and this side has not yet sent. */
    private final AtomicLong peerDemand = new AtomicLong();
    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    private volatile boolean cancelledByPeer;
    private volatile String consumerError;

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

    /**
     * Ends this side's direction of the stream, in order after its data.
     *
     * @return false if the ring has no room now: try again
     */
    public boolean complete() {
        if (sendRing.claim(0) < 0) {
            return false;
        }
        sendRing.commit(FrameTypes.COMPLETE, (byte) 0);
        return true;
    }

    /**
     * Ends this side's direction of the stream with an error the peer can read, in order after its data.
     *
     * @return false if the ring has no room now: try again
     */
    public boolean error(final int code, final String message) {
        final byte[] text = message.getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(text.length, 1024);
        final int index = sendRing.claim(8 + length);
        if (index < 0) {
            return false;
        }
        sendRing.buffer().putInt(index, code);
        sendRing.buffer().putInt(index + 4, length);
        sendRing.buffer().putBytes(index + 8, text, 0, length);
        sendRing.commit(FrameTypes.ERROR, (byte) 0);
        return true;
    }

    /**
     * @return true once the peer has consumed everything this side committed, the end of the stream included (its
     * credit covers it all); the producer's view
     */
    public boolean isFlushed() {
        return sendRing.isDrained();
    }

    // ------------------------------------------------------------------------------------------ message credit

    /** The consumer asks the peer for {@code n} more messages; the driver sends it in the next duty cycle. */
    public void request(final long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("request(n) needs n > 0: " + n);
        }
        requested.getAndAccumulate(n, ProtocolStream::addCapped);
    }

    /** @return messages the peer asked for and not yet sent: the most the producer may take from upstream */
    public long peerDemand() {
        return peerDemand.get();
    }

    /** The producer sent one message (its first fragment). */
    public void tookDemand() {
        peerDemand.decrementAndGet();
    }

    /** The consumer wants no more; the driver tells the peer. */
    public void cancel() {
        cancelRequested.set(true);
    }

    /** @return true once the peer's consumer cancelled: the producer stops */
    public boolean isCancelledByPeer() {
        return cancelledByPeer;
    }

    /** The consumer found a protocol error in the stream (a fragment out of order); the driver ends the connection. */
    public void consumerError(final String error) {
        if (consumerError == null) {
            consumerError = error;
        }
    }

    String consumerError() {
        return consumerError;
    }

    long takeRequested() {
        return requested.getAndSet(0);
    }

    void returnRequested(final long n) {
        requested.getAndAccumulate(n, ProtocolStream::addCapped);
    }

    boolean takeCancel() {
        return cancelRequested.getAndSet(false);
    }

    void onPeerRequest(final long n) {
        peerDemand.getAndAccumulate(n, ProtocolStream::addCapped);
    }

    void onPeerCancel() {
        cancelledByPeer = true;
    }

    private static long addCapped(final long a, final long b) {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
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
    public boolean poll(final FrameConsumer consumer) {
        return receiveRing.poll(consumer);
    }

    /** @return the type of the next frame for the consumer, or -1 if none has arrived */
    public int peekType() {
        return receiveRing.peekType();
    }
}
