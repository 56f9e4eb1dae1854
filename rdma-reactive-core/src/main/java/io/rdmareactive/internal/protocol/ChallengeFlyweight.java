package io.rdmareactive.internal.protocol;

import java.nio.ByteOrder;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The private data of a server's challenge: the reject with which a server that requires the authenticated handshake
 * answers a connect request that carries no proof yet. The client connects again with the cookie and its proof
 * ({@link HandshakeFlyweight#AUTH_COOKIE_OFFSET}); the server keeps nothing between the two requests. Little-endian;
 * byte offsets on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Magic = 0x48435252 ("RRCH")                   |  0
 *  +-------------------------------+-------------------------------+
 *  |          Version = 1          |         Reserved = 0          |  4
 *  +-------------------------------+-------------------------------+
 *  |                                                               |  8
 *  +                            Cookie                             +
 *  |                                                               | 12
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A {@link RejectFlyweight} has another magic, so a client tells a challenge from a refusal by its first four
 * bytes. Connection setup is the cold path: both methods allocate.
 */
public final class ChallengeFlyweight {

    /** Byte order of every field. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Offset of the magic (int). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version (unsigned short). */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the cookie. */
    public static final int COOKIE_OFFSET = 8;

    /** "RRCH" read as a little-endian int. */
    public static final int MAGIC = 0x48435252;
    /** The version this side writes and reads. */
    public static final int VERSION = 1;
    /** The length of a challenge. */
    public static final int LENGTH = COOKIE_OFFSET + HandshakeFlyweight.COOKIE_LENGTH;

    private ChallengeFlyweight() {
    }

    /** @return a challenge carrying the cookie ({@link HandshakeFlyweight#COOKIE_LENGTH} bytes) */
    public static byte[] encode(final byte[] cookie) {
        if (cookie.length != HandshakeFlyweight.COOKIE_LENGTH) {
            throw new IllegalArgumentException("a cookie is " + HandshakeFlyweight.COOKIE_LENGTH + " bytes, not "
                + cookie.length);
        }
        final byte[] privateData = new byte[LENGTH];
        final UnsafeBuffer out = new UnsafeBuffer(privateData);
        out.putInt(MAGIC_OFFSET, MAGIC, BYTE_ORDER);
        out.putShort(VERSION_OFFSET, (short) VERSION, BYTE_ORDER);
        out.putBytes(COOKIE_OFFSET, cookie);
        return privateData;
    }

    /**
     * @param privateData a reject's private data, possibly null, short or padded
     * @return the cookie if it is a challenge of this version, else null; never throws
     */
    public static byte[] decode(final byte[] privateData) {
        if (privateData == null || privateData.length < LENGTH) {
            return null;
        }
        final UnsafeBuffer in = new UnsafeBuffer(privateData);
        if (in.getInt(MAGIC_OFFSET, BYTE_ORDER) != MAGIC
            || (in.getShort(VERSION_OFFSET, BYTE_ORDER) & 0xFFFF) != VERSION) {
            return null;
        }
        return Arrays.copyOfRange(privateData, COOKIE_OFFSET, LENGTH);
    }
}
