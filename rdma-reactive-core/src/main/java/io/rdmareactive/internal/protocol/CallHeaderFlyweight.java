package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The 8-byte header that starts every message of a call stream: the stream a REQUEST_RESPONSE OPEN begins, which
 * carries many request/response calls at once, each named by a call id. Little-endian; byte offsets on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                            Call Id                            |  0
 *  +---------------------------------------------------------------+
 *  |                             Type                              |  4
 *  +---------------------------------------------------------------+
 *  |                     Body (the rest of the message)           ...  8
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A call stream's messages are DATA messages like any other (fragmented when larger than a frame, under the
 * stream's demand and credit); this header is the start of each message's payload. The opener sends {@link #CALL}
 * (body: the request), {@link #CANCEL} (no body) and {@link #ABORTED} (body ignored); the peer answers every CALL
 * exactly once with {@link #VALUE} (body: the answer), {@link #EMPTY}, {@link #ERROR} (body: the reason, UTF-8) or
 * {@link #NOT_ENCODED} (body ignored). A call id is in {@code [0, MAX_CALLS)}; the opener takes one for a CALL and
 * uses it again only after the call's answer arrived, so an id is in use on the serving side from its CALL until its
 * answer was written, and a CALL for an id in use, or an answer for one not in use, is a protocol error.
 *
 * <p>A flyweight: {@link #wrap(DirectBuffer, int)} points it at a message; reused, allocates nothing.
 */
public final class CallHeaderFlyweight extends Flyweight<CallHeaderFlyweight> {

    /** Offset of the call id (int). */
    public static final int CALL_ID_OFFSET = 0;
    /** Offset of the type (int). */
    public static final int TYPE_OFFSET = 4;
    /** Length of the header; the body follows. */
    public static final int LENGTH = 8;
    /** Calls that may be in flight on one call stream: call ids are {@code 0 .. MAX_CALLS - 1}. */
    public static final int MAX_CALLS = 1024;
    /**
     * Messages the opener of a call stream may send before the peer's first REQUEST_N: both sides count them as granted
     * with the OPEN, so that the first calls need no round trip first.
     */
    public static final long OPEN_DEMAND = 256;

    /** Opener to peer: a call; the body is its request. */
    public static final int CALL = 1;
    /** Opener to peer: the caller gave up a call it sent; the peer still answers it (the answer is dropped). */
    public static final int CANCEL = 2;
    /** Opener to peer: a call that was not sent after all (given up, or its request could not be encoded); no answer. */
    public static final int ABORTED = 3;

    /** Peer to opener: the answer; the body is its message. */
    public static final int VALUE = 1;
    /** Peer to opener: the call ended without an answer. */
    public static final int EMPTY = 2;
    /** Peer to opener: the call failed; the body is why, in UTF-8. */
    public static final int ERROR = 3;
    /** Peer to opener: the answer could not be encoded by the peer's codec; the body is not meaningful. */
    public static final int NOT_ENCODED = 4;

    /** @return the call id */
    public int callId() {
        return getInt(CALL_ID_OFFSET);
    }

    /** @return the type */
    public int type() {
        return getInt(TYPE_OFFSET);
    }

    /**
     * Writes a header.
     *
     * @param buffer where
     * @param offset at what offset
     * @param callId the call id
     * @param type   the type
     */
    public static void write(final MutableDirectBuffer buffer, final int offset, final int callId, final int type) {
        buffer.putInt(offset + CALL_ID_OFFSET, callId, BYTE_ORDER);
        buffer.putInt(offset + TYPE_OFFSET, type, BYTE_ORDER);
    }

    /**
     * Checks a message a peer wrote: long enough for the header, a call id in range, a type known for its direction.
     *
     * @param buffer   the message
     * @param offset   where it starts
     * @param length   its length
     * @param toOpener true for a message the serving side sends (an answer), false for one the opener sends
     * @return null if it is well formed, or what is wrong with it
     */
    public static String check(final DirectBuffer buffer, final int offset, final int length,
                               final boolean toOpener) {
        if (length < LENGTH) {
            return "a call message of " + length + " bytes, shorter than its " + LENGTH + "-byte header";
        }
        final int callId = buffer.getInt(offset + CALL_ID_OFFSET, BYTE_ORDER);
        if (callId < 0 || callId >= MAX_CALLS) {
            return "call id " + callId + " outside [0, " + MAX_CALLS + ")";
        }
        final int type = buffer.getInt(offset + TYPE_OFFSET, BYTE_ORDER);
        final int last = toOpener ? NOT_ENCODED : ABORTED;
        if (type < 1 || type > last) {
            return "call message type " + type + " unknown " + (toOpener ? "for an answer" : "for a call");
        }
        return null;
    }
}
