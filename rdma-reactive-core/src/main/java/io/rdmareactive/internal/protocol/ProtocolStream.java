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
    public static final short OPEN = FrameTypes.OPEN;
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
    /** Which use of the stream this is; both sides count the OPEN frames, so they agree. */
    private volatile int use;
    private long stashedDemand;
    private boolean stashedCancel;
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
     * Begins a new use of the stream: the OPEN frame goes first, before the request's data.
     *
     * @param kind what the opener asks for (1 fire-and-forget, 2 request/response, 3 request/stream, 4 channel)
     * @return false if the ring has no room now: try again
     */
    public boolean open(final int kind) {
        final int index = sendRing.claim(8);
        if (index < 0) {
            return false;
        }
        sendRing.buffer().putInt(index, kind);
        sendRing.buffer().putInt(index + 4, 0);
        sendRing.commit(FrameTypes.OPEN, (byte) 0);
        return true;
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

    // what the driver takes to send, with the use it belongs to, taken together so a new use cannot slip between
    long takenRequest;
    boolean takenCancel;
    int takenUse;

    /** Driver: takes the requests and cancel waiting to be sent, and their use, in one step with {@link #beginUse}. */
    synchronized boolean takeControl() {
        takenRequest = requested.getAndSet(0);
        takenCancel = cancelRequested.getAndSet(false);
        takenUse = use;
        return takenRequest > 0 || takenCancel;
    }

    /** Driver: the control ring was full; what was taken goes back, unless its use is over. */
    synchronized void returnControl(final long n, final boolean cancel, final int ofUse) {
        if (ofUse == use) {
            if (n > 0) {
                requested.getAndAccumulate(n, ProtocolStream::addCapped);
            }
            if (cancel) {
                cancelRequested.set(true);
            }
        }
    }

    /** @return which use of the stream this is (0 until the first OPEN) */
    public int use() {
        return use;
    }

    /**
     * A new use of the stream begins (this side wrote or read its OPEN frame): credit and cancels of the last use are
     * forgotten, and those the peer already sent for this use take effect.
     */
    public synchronized void beginUse() {
        use++;
        requested.set(0);
        cancelRequested.set(false);
        peerDemand.set(stashedDemand);
        cancelledByPeer = stashedCancel;
        stashedDemand = 0;
        stashedCancel = false;
    }

    /** The peer asked for n more messages of use {@code peerUse} (driver thread). */
    synchronized boolean onPeerRequest(final int peerUse, final long n) {
        if (peerUse == use) {
            peerDemand.getAndAccumulate(n, ProtocolStream::addCapped);
        } else if (peerUse == use + 1) {
            stashedDemand = addCapped(stashedDemand, n); // its OPEN has not been read here yet
        } else {
            return peerUse < use; // a late request of an earlier use is harmless; one from the future is not
        }
        return true;
    }

    /** The peer cancelled use {@code peerUse} (driver thread). */
    synchronized boolean onPeerCancel(final int peerUse) {
        if (peerUse == use) {
            cancelledByPeer = true;
        } else if (peerUse == use + 1) {
            stashedCancel = true;
        } else {
            return peerUse < use;
        }
        return true;
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
