package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * ERROR: a stream failed, with a code and a UTF-8 message of at most {@link #MAX_MESSAGE_LENGTH} bytes.
 * Little-endian; byte offsets from the frame's start on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              Frame Length = 18 + Message Length               |  0
 *  +-------------------------------+---------------+---------------+
 *  |          Type = ERROR         |   Flags = 0   |  Reserved = 0 |  4
 *  +-------------------------------+---------------+---------------+
 *  |                           Stream Id                           |  8
 *  +---------------------------------------------------------------+
 *  |                          Error Code                           | 12
 *  +-------------------------------+-------------------------------+
 *  |    Message Length (0..1024)   |        Message (UTF-8)       ... 16
 *  +-------------------------------+                               |
 * ...                                                              |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The message length is an unsigned short. The frame length is exactly {@code 18 + messageLength}; reading clamps
 * the message to the frame length (and the buffer) whatever the prefix says, and only {@link #message()} allocates
 * (the String; errors are the cold path). Writing encodes the message straight into the frame, cutting it at
 * {@link #MAX_MESSAGE_LENGTH} bytes (or a smaller maximum, for a ring whose frames hold less) on a character boundary,
 * without allocating; {@link #encodedLength(CharSequence, int)} tells the length first, so that a writer can claim
 * exactly the frame's room.
 *
 * <p>A flyweight over the whole frame, header included: wrap it at the frame's first byte. Writers must wrap a
 * {@link MutableDirectBuffer}.
 */
public final class ErrorFrameFlyweight extends StreamFrameFlyweight<ErrorFrameFlyweight> {

    /** Offset of the error code (int). */
    public static final int ERROR_CODE_OFFSET = STREAM_ID_OFFSET + Integer.BYTES;
    /** Offset of the message length (unsigned short). */
    public static final int MESSAGE_LENGTH_OFFSET = ERROR_CODE_OFFSET + Integer.BYTES;
    /** Offset of the message's first byte. */
    public static final int MESSAGE_OFFSET = MESSAGE_LENGTH_OFFSET + Short.BYTES;
    /** The most bytes of message a frame carries. */
    public static final int MAX_MESSAGE_LENGTH = 1024;
    /** The frame length of an ERROR with an empty message. */
    public static final int MIN_LENGTH = MESSAGE_OFFSET;
    /** The frame length of an ERROR with the longest message. */
    public static final int MAX_LENGTH = MESSAGE_OFFSET + MAX_MESSAGE_LENGTH;

    /**
     * @param messageLength bytes of message, 0 .. {@link #MAX_MESSAGE_LENGTH}
     * @return the frame length of an ERROR with that message
     */
    public static int frameLength(final int messageLength) {
        return MESSAGE_OFFSET + messageLength;
    }

    /**
     * Writes the whole frame: header (frame length, {@link FrameHeaderFlyweight#ERROR}, no flags) and body. The
     * message is encoded as UTF-8 (a lone surrogate as {@code '?'}) and cut before the first character that would
     * take it past {@link #MAX_MESSAGE_LENGTH} bytes. The buffer must have room for {@link #MAX_LENGTH} bytes, or for
     * the encoded message. Allocates nothing.
     *
     * @param streamId  the stream's slot
     * @param errorCode the error code
     * @param message   the message; null writes an empty one
     * @return this; {@link #frameLength()} tells how long the frame came out
     */
    public ErrorFrameFlyweight write(final int streamId, final int errorCode, final CharSequence message) {
        return write(streamId, errorCode, message, MAX_MESSAGE_LENGTH);
    }

    /**
     * Writes the whole frame as {@link #write(int, int, CharSequence)} does, the message cut at
     * {@code maxMessageLength} bytes rather than {@link #MAX_MESSAGE_LENGTH} (for a ring whose frames cannot hold
     * the longest message). The buffer must have room for {@link #frameLength(int) frameLength(}{@link
     * #encodedLength(CharSequence, int) encodedLength(message, maxMessageLength))} bytes. Allocates nothing.
     *
     * @param streamId         the stream's slot
     * @param errorCode        the error code
     * @param message          the message; null writes an empty one
     * @param maxMessageLength the most bytes of message to write, 0 .. {@link #MAX_MESSAGE_LENGTH}
     * @return this; {@link #frameLength()} tells how long the frame came out
     */
    public ErrorFrameFlyweight write(final int streamId, final int errorCode, final CharSequence message,
                                     final int maxMessageLength) {
        assert maxMessageLength >= 0 && maxMessageLength <= MAX_MESSAGE_LENGTH : maxMessageLength;
        final int messageLength = utf8(out(), offset() + MESSAGE_OFFSET, message, maxMessageLength);
        return header(MESSAGE_OFFSET + messageLength, FrameHeaderFlyweight.ERROR, 0).streamId(streamId)
            .putInt(ERROR_CODE_OFFSET, errorCode).putShort(MESSAGE_LENGTH_OFFSET, messageLength);
    }

    /**
     * The length of the message {@link #write(int, int, CharSequence, int)} would write, without writing it: so that
     * a writer can claim exactly the frame's room first. Allocates nothing.
     *
     * @param message          the message; null for an empty one
     * @param maxMessageLength the most bytes of message, 0 .. {@link #MAX_MESSAGE_LENGTH}
     * @return the bytes of UTF-8 the message is cut to
     */
    public static int encodedLength(final CharSequence message, final int maxMessageLength) {
        return utf8(null, 0, message, maxMessageLength);
    }

    /** Encodes (into {@code out}, or only counts when it is null) at most {@code max} bytes of UTF-8. */
    private static int utf8(final MutableDirectBuffer out, final int at, final CharSequence message, final int max) {
        if (message == null) {
            return 0;
        }
        final int chars = message.length();
        int written = 0;
        for (int i = 0; i < chars; i++) {
            final char c = message.charAt(i);
            if (c < 0x80) {
                if (written + 1 > max) {
                    break;
                }
                put(out, at + written++, c);
            } else if (c < 0x800) {
                if (written + 2 > max) {
                    break;
                }
                put(out, at + written++, 0xC0 | (c >>> 6));
                put(out, at + written++, 0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(message.charAt(i + 1))) {
                if (written + 4 > max) {
                    break;
                }
                final int codePoint = Character.toCodePoint(c, message.charAt(++i));
                put(out, at + written++, 0xF0 | (codePoint >>> 18));
                put(out, at + written++, 0x80 | ((codePoint >>> 12) & 0x3F));
                put(out, at + written++, 0x80 | ((codePoint >>> 6) & 0x3F));
                put(out, at + written++, 0x80 | (codePoint & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (written + 1 > max) {
                    break;
                }
                put(out, at + written++, '?');
            } else {
                if (written + 3 > max) {
                    break;
                }
                put(out, at + written++, 0xE0 | (c >>> 12));
                put(out, at + written++, 0x80 | ((c >>> 6) & 0x3F));
                put(out, at + written++, 0x80 | (c & 0x3F));
            }
        }
        return written;
    }

    private static void put(final MutableDirectBuffer out, final int index, final int value) {
        if (out != null) {
            out.putByte(index, (byte) value);
        }
    }

    /** @return the error code */
    public int errorCode() {
        return getInt(ERROR_CODE_OFFSET);
    }

    /**
     * The message's length in bytes, clamped: never more than {@link #MAX_MESSAGE_LENGTH}, than the frame length
     * allows after {@link #MESSAGE_OFFSET}, or than the buffer holds; never negative. The bytes are at
     * {@code offset() + MESSAGE_OFFSET} in {@link #buffer()}.
     *
     * @return the bytes of message that may be read
     */
    public int messageLength() {
        final int declared = getUnsignedShort(MESSAGE_LENGTH_OFFSET);
        final long inFrame = Math.min((long) frameLength(), (long) buffer().capacity() - offset()) - MESSAGE_OFFSET;
        return (int) Math.max(0, Math.min(Math.min(declared, MAX_MESSAGE_LENGTH), inFrame));
    }

    /**
     * Decodes the message (malformed UTF-8 becomes U+FFFD). Allocates: the cold path only.
     *
     * @return the message, {@link #messageLength()} bytes of it
     */
    public String message() {
        return buffer().getStringWithoutLengthUtf8(offset() + MESSAGE_OFFSET, messageLength());
    }

    /**
     * Checks the body of an ERROR frame whose header passed {@link FrameHeaderFlyweight#check}: the message length is
     * at most {@link #MAX_MESSAGE_LENGTH}, the frame length is exactly {@code 18 + messageLength}, and the stream id
     * is in {@code [0, maxStreams)}. Reads only {@code [index, index + frameLength)}, and only inside the buffer;
     * never throws. The message's bytes are not checked: a malformed message decodes with replacement characters.
     *
     * @param buffer      the buffer holding the frame
     * @param index       the frame's first byte
     * @param frameLength the frame length from its header
     * @param maxStreams  the number of stream slots of the connection
     * @return a {@link FrameCheck} code
     */
    public static int check(final DirectBuffer buffer, final int index, final int frameLength, final int maxStreams) {
        if (index < 0) {
            return FrameCheck.OUT_OF_RANGE;
        }
        if (frameLength < MIN_LENGTH) {
            return FrameCheck.TOO_SHORT;
        }
        if (frameLength > MAX_LENGTH) {
            return FrameCheck.TOO_LONG;
        }
        if ((long) index + frameLength > buffer.capacity()) {
            return FrameCheck.OUT_OF_RANGE;
        }
        final int messageLength = buffer.getShort(index + MESSAGE_LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
        if (messageLength > MAX_MESSAGE_LENGTH) {
            return FrameCheck.BAD_MESSAGE_LENGTH;
        }
        if (frameLength < MESSAGE_OFFSET + messageLength) {
            return FrameCheck.TOO_SHORT;
        }
        if (frameLength > MESSAGE_OFFSET + messageLength) {
            return FrameCheck.TOO_LONG;
        }
        return checkStream(buffer, index, maxStreams);
    }
}
