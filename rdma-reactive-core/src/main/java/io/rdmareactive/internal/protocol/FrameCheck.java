package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;

/**
 * The verdicts of the frame checks ({@link FrameHeaderFlyweight#check} and the body checks of each control frame):
 * plain {@code int} codes rather than exceptions or enum constants, so that checking what a hostile or broken peer
 * wrote costs a comparison on the hot path. {@link #OK} is 0; every other code names the first rule the frame broke,
 * and {@link #describe(int)} turns it into text for the error that closes the connection.
 */
public final class FrameCheck {

    /** The frame (or body) is well formed. */
    public static final int OK = 0;
    /** Fewer than 8 bytes to read a header from, a frame length below the header's, or a body shorter than its type's. */
    public static final int TOO_SHORT = 1;
    /** The frame runs past the bytes available, past the ring's end or the buffer's, or its body is longer than its type's. */
    public static final int TOO_LONG = 2;
    /** The frame type is not one of {@link FrameHeaderFlyweight#PAD} .. {@link FrameHeaderFlyweight#LAST_TYPE}. */
    public static final int BAD_TYPE = 3;
    /** Flags on a frame other than DATA, unknown flags on DATA, or a reserved field that is not zero. */
    public static final int BAD_FLAGS = 4;
    /** The frame does not start at a multiple of {@link FrameHeaderFlyweight#ALIGNMENT}. */
    public static final int MISALIGNED = 5;
    /** A PAD frame that does not end exactly at the ring's end. */
    public static final int PAD_NOT_AT_END = 6;
    /**
     * A stream id outside {@code [0, maxStreams)}, or one the frame may not name where it travels: a COMPLETE, ERROR
     * or OPEN naming another stream than the one whose ring it is in, a REQUEST_N or CANCEL naming the control
     * stream.
     */
    public static final int BAD_STREAM_ID = 7;
    /** A REQUEST_N of n &lt;= 0, or an OPEN with a negative initial request. */
    public static final int BAD_REQUEST_N = 8;
    /** An OPEN whose interaction kind is not one of {@link OpenFrameFlyweight#FIRE_AND_FORGET} .. {@link OpenFrameFlyweight#CHANNEL}. */
    public static final int BAD_KIND = 9;
    /** An ERROR whose message length is above {@link ErrorFrameFlyweight#MAX_MESSAGE_LENGTH}. */
    public static final int BAD_MESSAGE_LENGTH = 10;
    /** A KEEPALIVE whose last received position is negative. */
    public static final int BAD_POSITION = 11;
    /**
     * The arguments of the check do not describe a range inside the ring or buffer (a negative index or length, an
     * index at or past the ring's end): a bug on the checking side, not the peer's.
     */
    public static final int OUT_OF_RANGE = 12;
    /**
     * A negative use in a REQUEST_N, CANCEL, COMPLETE or CLOSE; or, where the receiver knows the stream's use, a
     * COMPLETE of another use than the current one, or an OPEN that does not begin the next.
     */
    public static final int BAD_USE = 13;
    /**
     * A frame type that does not travel where it was found: REQUEST_N, CANCEL, KEEPALIVE and REGION_CLOSED travel on
     * the control stream (0) only; DATA, COMPLETE, ERROR and OPEN on the data streams only; CLOSE on none in version 1 (a
     * connection ends by disconnecting).
     */
    public static final int WRONG_STREAM = 14;
    /** A REGION_CLOSED whose generation is not positive, or whose reserved word is not zero. */
    public static final int BAD_GENERATION = 15;
    /** The highest code. */
    public static final int LAST = BAD_GENERATION;

    private FrameCheck() {
    }

    /**
     * The common first step of the body checks: the frame must have exactly {@code length} bytes and lie inside the
     * buffer. Reads nothing.
     */
    static int exactLength(final DirectBuffer buffer, final int index, final int frameLength,
                           final int length) {
        if (index < 0) {
            return OUT_OF_RANGE;
        }
        if (frameLength < length) {
            return TOO_SHORT;
        }
        if (frameLength > length) {
            return TOO_LONG;
        }
        if ((long) index + length > buffer.capacity()) {
            return OUT_OF_RANGE;
        }
        return OK;
    }

    /**
     * @param code a code of this class
     * @return a short description of what the code means, for error messages; a constant string (no allocation)
     */
    public static String describe(final int code) {
        return switch (code) {
            case OK -> "frame is well formed";
            case TOO_SHORT -> "frame is shorter than its header or its type requires";
            case TOO_LONG -> "frame runs past the bytes available, the ring's end, or the length its type requires";
            case BAD_TYPE -> "frame type is not known";
            case BAD_FLAGS -> "frame has flags its type does not allow, or a reserved field that is not zero";
            case MISALIGNED -> "frame does not start at a multiple of 8";
            case PAD_NOT_AT_END -> "PAD frame does not end exactly at the ring's end";
            case BAD_STREAM_ID -> "stream id is outside [0, maxStreams), or not one this frame may name";
            case BAD_REQUEST_N -> "request n is not positive (REQUEST_N) or is negative (OPEN)";
            case BAD_KIND -> "interaction kind is not known";
            case BAD_MESSAGE_LENGTH -> "error message is longer than 1024 bytes";
            case BAD_POSITION -> "position is negative";
            case OUT_OF_RANGE -> "range to check lies outside the ring or buffer (a bug on the checking side)";
            case BAD_USE -> "use is negative, or not the use of the stream the frame belongs to";
            case WRONG_STREAM -> "frame type does not travel on this stream (control frames on stream 0 only, "
                + "DATA, COMPLETE, ERROR and OPEN on the others only, CLOSE on none)";
            case BAD_GENERATION -> "region generation is not positive, or the reserved word after it is not zero";
            default -> "unknown frame check code";
        };
    }
}
