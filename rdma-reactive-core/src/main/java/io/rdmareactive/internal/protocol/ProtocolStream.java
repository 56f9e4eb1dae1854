package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.HEADER_LENGTH;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One stream of a connection: its send ring (one producer thread at a time) and its receive ring (one consumer
 * thread at a time), and its message credit: the consumer's {@link #request(long)} reaches the peer as REQUEST_N,
 * and the peer's requests become {@link #peerDemand()}, the most the producer may ask its upstream for.
 *
 * <p>Frames are laid out by the flyweights: DATA is encoded in place after the header {@link #claim(int)} leaves room
 * for; OPEN ({@link OpenFrameFlyweight}), COMPLETE ({@link StreamControlFlyweight}) and ERROR
 * ({@link ErrorFrameFlyweight}) travel in-band, in order with the data, and a consumer checks them with
 * {@link #checkFrame} before reading them.
 */
public final class ProtocolStream {

    /** {@link #claim(int)} found no room: the peer has not consumed enough yet. */
    public static final int BACK_PRESSURED = StreamSendRing.BACK_PRESSURED;
    /** Frame types a consumer sees (see {@link FrameHeaderFlyweight}). */
    public static final short DATA = FrameHeaderFlyweight.DATA;
    public static final short COMPLETE = FrameHeaderFlyweight.COMPLETE;
    public static final short ERROR = FrameHeaderFlyweight.ERROR;
    public static final short OPEN = FrameHeaderFlyweight.OPEN;
    /** Flags of a whole message in one frame ({@link FrameHeaderFlyweight#WHOLE}). */
    public static final byte WHOLE = (byte) FrameHeaderFlyweight.WHOLE;
    /** The control stream's slot: REQUEST_N, CANCEL and KEEPALIVE, written and read by the driver. */
    static final int CONTROL_STREAM = 0;

    private final int id;
    private final int maxStreams;
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
    /** The initial request n of this use's OPEN, when this side opens it. */
    private long openRequestN;
    private boolean stashedCancel;
    private volatile String consumerError;
    private volatile boolean consumerErrorIsLocal;
    // the producer's flyweights (one producer thread at a time)
    private final OpenFrameFlyweight openOut = new OpenFrameFlyweight();
    private final StreamControlFlyweight completeOut = new StreamControlFlyweight();
    private final ErrorFrameFlyweight errorOut = new ErrorFrameFlyweight();
    // the consumer's (one consumer thread at a time)
    private final StreamControlFlyweight completeIn = new StreamControlFlyweight();
    private final OpenFrameFlyweight openIn = new OpenFrameFlyweight();

    /** Where this stream tells its connection's loop that it has work (requests, cancels, consumed bytes). */
    private final StreamMarks marks;

    ProtocolStream(final int id, final int maxStreams, final StreamSendRing sendRing,
                   final StreamReceiveRing receiveRing) {
        this(id, maxStreams, sendRing, receiveRing, new StreamMarks(maxStreams));
    }

    ProtocolStream(final int id, final int maxStreams, final StreamSendRing sendRing,
                   final StreamReceiveRing receiveRing, final StreamMarks marks) {
        this.marks = marks;
        this.id = id;
        this.maxStreams = maxStreams;
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

    /**
     * Publishes the claimed DATA frame.
     *
     * @param flags {@link FrameHeaderFlyweight#FIRST} and {@link FrameHeaderFlyweight#LAST} ({@link #WHOLE} for a
     *              message in one frame)
     */
    public void commit(final byte flags) {
        sendRing.commit(FrameHeaderFlyweight.DATA, flags);
    }

    /**
     * Begins this use of the stream on the wire: the OPEN frame goes first, before the request's data. Call it after
     * {@link #beginUse(long, long)}: the OPEN carries the use it begins as its correlation id, and as its initial
     * request n the demand the opener grants the peer at once (given to {@code beginUse}), so that an answer needs no
     * REQUEST_N first.
     *
     * @param kind what the opener asks for, {@link OpenFrameFlyweight#FIRE_AND_FORGET} ..
     *             {@link OpenFrameFlyweight#CHANNEL}
     * @return false if the ring has no room now: try again
     */
    public boolean open(final int kind) {
        final int index = sendRing.claim(OpenFrameFlyweight.LENGTH - HEADER_LENGTH);
        if (index < 0) {
            return false;
        }
        openOut.wrap(sendRing.buffer(), index - HEADER_LENGTH).write(id, kind, openRequestN, use);
        sendRing.commit(FrameHeaderFlyweight.OPEN, (byte) 0);
        return true;
    }

    /**
     * Ends this side's direction of the stream's current use, in order after its data.
     *
     * @return false if the ring has no room now: try again
     */
    public boolean complete() {
        final int index = sendRing.claim(StreamControlFlyweight.LENGTH - HEADER_LENGTH);
        if (index < 0) {
            return false;
        }
        completeOut.wrap(sendRing.buffer(), index - HEADER_LENGTH).write(FrameHeaderFlyweight.COMPLETE, id, use);
        sendRing.commit(FrameHeaderFlyweight.COMPLETE, (byte) 0);
        return true;
    }

    /**
     * Ends this side's direction of the stream with an error the peer can read, in order after its data. The message
     * is cut (on a character boundary) to what one frame of this ring holds, at most
     * {@link ErrorFrameFlyweight#MAX_MESSAGE_LENGTH} bytes of UTF-8; nothing is allocated.
     *
     * @param code    the error code
     * @param message what went wrong; null for nothing
     * @return false if the ring has no room now: try again
     */
    public boolean error(final int code, final CharSequence message) {
        final int maxMessage = Math.min(ErrorFrameFlyweight.MAX_MESSAGE_LENGTH,
            sendRing.maxPayload() + HEADER_LENGTH - ErrorFrameFlyweight.MESSAGE_OFFSET);
        final int messageLength = ErrorFrameFlyweight.encodedLength(message, maxMessage);
        final int index = sendRing.claim(ErrorFrameFlyweight.frameLength(messageLength) - HEADER_LENGTH);
        if (index < 0) {
            return false;
        }
        errorOut.wrap(sendRing.buffer(), index - HEADER_LENGTH).write(id, code, message, maxMessage);
        sendRing.commit(FrameHeaderFlyweight.ERROR, (byte) 0);
        return true;
    }

    // ------------------------------------------------------------------------------------------ message credit

    /** The consumer asks the peer for {@code n} more messages; the driver sends it in the next duty cycle. */
    public void request(final long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("request(n) needs n > 0: " + n);
        }
        requested.getAndAccumulate(n, ProtocolStream::addCapped);
        marks.mark(id);
    }

    /** @return messages the peer asked for and not yet sent: the most the producer may take from upstream */
    public long peerDemand() {
        return peerDemand.get();
    }

    /** The producer sent {@code messages} messages (their first fragments): one atomic step for a batch. */
    public void tookDemand(final long messages) {
        peerDemand.getAndAdd(-messages);
    }

    /** The consumer wants no more; the driver tells the peer. */
    public void cancel() {
        cancelRequested.set(true);
        marks.mark(id);
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
        marks.mark(id);
    }

    /**
     * The consumer refuses to go on for a reason of this side (no memory left to reassemble a message): the driver ends
     * the connection with that reason, which does not blame the peer.
     */
    public void consumerRefused(final String reason) {
        if (consumerError == null) {
            consumerErrorIsLocal = true;
            consumerError = reason;
        }
        marks.mark(id);
    }

    /** @return true if {@link #consumerError()} is this side's refusal rather than the peer's protocol error */
    boolean isConsumerErrorLocal() {
        return consumerErrorIsLocal;
    }

    String consumerError() {
        return consumerError;
    }

    // what the driver takes to send, with the use it belongs to, taken together so a new use cannot slip between
    long takenRequest;
    boolean takenCancel;
    int takenUse;

    /**
     * Driver: takes the requests and cancel waiting to be sent, and their use, in one step with {@link #beginUse}.
     * Runs for every stream in every duty cycle, so the common case, nothing to send, returns before the lock: a
     * request or cancel that lands just after the look is taken in the next cycle.
     */
    boolean takeControl() {
        if (requested.get() == 0 && !cancelRequested.get()) {
            return false;
        }
        return takeControlLocked();
    }

    /** @return true while a request or cancel waits to be sent (the loop keeps looking at the stream) */
    boolean hasControlPending() {
        return requested.get() != 0 || cancelRequested.get();
    }

    private synchronized boolean takeControlLocked() {
        takenRequest = requested.getAndSet(0);
        takenCancel = cancelRequested.getAndSet(false);
        takenUse = use;
        return takenRequest > 0 || takenCancel;
    }

    /** Driver: the control ring was full; what was taken goes back, unless its use is over. */
    synchronized void returnControl(final long n, final boolean cancel, final int ofUse) {
        marks.mark(id); // look again in the next cycle
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
     * A new use of the stream begins (this side is about to write its OPEN frame, or read the peer's): credit and
     * cancels of the last use are forgotten, and those the peer already sent for this use take effect.
     *
     * @param implicitPeerDemand messages this side may send without a REQUEST_N: the opener's one request message of
     *                           a fire-and-forget, request/response or request/stream; the answerer's, the OPEN's
     *                           initial request n
     * @param openRequestN       for the opener, the initial request n its OPEN carries (what its consumer grants at
     *                           once); 0 for the answerer
     */
    public synchronized void beginUse(final long implicitPeerDemand, final long openRequestN) {
        use++;
        this.openRequestN = openRequestN;
        requested.set(0);
        cancelRequested.set(false);
        peerDemand.set(addCapped(stashedDemand, implicitPeerDemand));
        cancelledByPeer = stashedCancel;
        stashedDemand = 0;
        stashedCancel = false;
    }

    /** The peer asked for n more messages of use {@code peerUse} (the connection's loop). */
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

    /** The peer cancelled use {@code peerUse} (the connection's loop). */
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
        final boolean polled = receiveRing.poll(consumer);
        if (receiveRing.creditDue() || receiveRing.isCorrupted()) {
            marks.mark(id); // credit to return, or a rewritten frame to end the connection for: the loop looks
        }
        return polled;
    }

    /** @return the type of the next frame for the consumer, or -1 if none has arrived */
    public int peekType() {
        final int type = receiveRing.peekType();
        if (type < 0 && receiveRing.isCorrupted()) {
            marks.mark(id);
        }
        return type;
    }

    /**
     * Checks an OPEN, COMPLETE or ERROR a {@link FrameConsumer} of this stream was handed, before any of its fields is
     * read (the peer can rewrite a frame after its check on arrival): the body check of its flyweight; that it names
     * this stream; that a COMPLETE belongs to the current use, and that an OPEN (read before {@link #beginUse(long, long)})
     * begins the next. DATA needs no check here (its header was checked); any other type does not travel on a data
     * stream. Consumer thread; allocates nothing.
     *
     * @param buffer the buffer the consumer was handed
     * @param index  the payload index the consumer was handed (the frame starts
     *               {@link FrameHeaderFlyweight#HEADER_LENGTH} bytes before)
     * @param length the payload length the consumer was handed
     * @param type   the frame type the consumer was handed
     * @return a {@link FrameCheck} code; anything but {@link FrameCheck#OK} is a protocol error (report it with
     *     {@link #consumerError(String)})
     */
    public int checkFrame(final DirectBuffer buffer, final int index, final int length, final short type) {
        final int frame = index - HEADER_LENGTH;
        final int frameLength = length + HEADER_LENGTH;
        final int code = id == CONTROL_STREAM ? FrameCheck.WRONG_STREAM
            : StreamReceiveRing.checkBody(buffer, frame, frameLength, type, id, maxStreams);
        if (code != FrameCheck.OK) {
            return code;
        }
        return switch (type) {
            case FrameHeaderFlyweight.COMPLETE -> completeIn.wrap(buffer, frame).use() == use ? FrameCheck.OK
                : FrameCheck.BAD_USE;
            case FrameHeaderFlyweight.OPEN -> openIn.wrap(buffer, frame).correlationId() == use + 1L ? FrameCheck.OK
                : FrameCheck.BAD_USE;
            default -> FrameCheck.OK;
        };
    }
}
