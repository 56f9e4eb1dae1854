package io.rdmareactive.internal.protocol;

import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The private data of an rdma_cm reject: why this side refused a connection, in at most {@link #MAX_LENGTH} = 104
 * bytes. Little-endian; byte offsets on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Magic = 0x4a525252 ("RRRJ")                   |  0
 *  +-------------------------------+-------------------------------+
 *  |          Version = 1          |     Reason Length (0..96)     |  4
 *  +-------------------------------+-------------------------------+
 *  |                 Reason (printable ASCII)                     ...  8
 * ...                                                              |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A reject carries more private data than a connect request: rdma_cm delivers up to 148 bytes with a reject (an
 * InfiniBand CM REJ's private data; RoCE uses the same CM), against 56 with a connect request, and the SPI says so
 * ({@code DeviceLimits.maxRejectPrivateDataLength()}). 96 bytes of reason leave room to spare and hold every reason
 * this side gives whole, the key words first; a longer one is cut. {@link #encode(String, int)} cuts it further for a
 * device that carries less.
 *
 * <p>The reason layout is the same in every version, so {@link #decode(byte[])} reads any version. Connection setup
 * is the cold path: both methods allocate.
 */
public final class RejectFlyweight {

    /** Byte order of every field. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Offset of the magic (int). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version (short). */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the reason's length (unsigned short). */
    public static final int REASON_LENGTH_OFFSET = 6;
    /** Offset of the reason's first byte. */
    public static final int REASON_OFFSET = 8;
    /** The longest reason, in bytes. */
    public static final int MAX_REASON_LENGTH = 96;
    /** The longest reject private data. */
    public static final int MAX_LENGTH = REASON_OFFSET + MAX_REASON_LENGTH;

    /** "RRRJ" read as a little-endian int. */
    public static final int MAGIC = 0x4a525252;
    /** The version this side writes. */
    public static final int VERSION = 1;

    private RejectFlyweight() {
    }

    /**
     * Encodes a reason: characters outside printable ASCII become {@code '?'} (a surrogate pair one {@code '?'}), and
     * the reason is cut at {@link #MAX_REASON_LENGTH} bytes.
     *
     * @param reason why; null for none
     * @return the private data, {@code 8 + min(96, reason bytes)} bytes long
     */
    public static byte[] encode(final String reason) {
        return encode(reason, MAX_LENGTH);
    }

    /**
     * Encodes a reason as {@link #encode(String)} does, into at most {@code maxPrivateDataLength} bytes.
     *
     * @param reason               why; null for none
     * @param maxPrivateDataLength the most private data the device carries with a reject, at least
     *                             {@link #REASON_OFFSET}
     * @return the private data, {@code 8 + min(96, maxPrivateDataLength - 8, reason bytes)} bytes long
     */
    public static byte[] encode(final String reason, final int maxPrivateDataLength) {
        if (maxPrivateDataLength < REASON_OFFSET) {
            throw new IllegalArgumentException("a reject needs " + REASON_OFFSET + " bytes of private data, the device "
                + "carries " + maxPrivateDataLength);
        }
        final int maxReason = Math.min(MAX_REASON_LENGTH, maxPrivateDataLength - REASON_OFFSET);
        final byte[] text = new byte[maxReason];
        int length = 0;
        if (reason != null) {
            for (int i = 0; i < reason.length() && length < maxReason; i++) {
                final char c = reason.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < reason.length()
                    && Character.isLowSurrogate(reason.charAt(i + 1))) {
                    i++;
                }
                text[length++] = isPrintable(c) ? (byte) c : (byte) '?';
            }
        }
        final byte[] privateData = new byte[REASON_OFFSET + length];
        final UnsafeBuffer out = new UnsafeBuffer(privateData);
        out.putInt(MAGIC_OFFSET, MAGIC, BYTE_ORDER);
        out.putShort(VERSION_OFFSET, (short) VERSION, BYTE_ORDER);
        out.putShort(REASON_LENGTH_OFFSET, (short) length, BYTE_ORDER);
        out.putBytes(REASON_OFFSET, text, 0, length);
        return privateData;
    }

    /**
     * Decodes the reason of a reject, if the private data is ours. Never throws: a reason length past the data or
     * past 96 bytes is clamped, and bytes outside printable ASCII read as {@code '?'}. Bytes after the reason (rdma_cm
     * may pad private data) are ignored.
     *
     * @param privateData the private data of a reject, possibly null or empty
     * @return the reason, or null if the data is not an rdma-reactive reject
     */
    public static String decode(final byte[] privateData) {
        if (privateData == null || privateData.length < REASON_OFFSET) {
            return null;
        }
        final UnsafeBuffer in = new UnsafeBuffer(privateData);
        if (in.getInt(MAGIC_OFFSET, BYTE_ORDER) != MAGIC) {
            return null;
        }
        final int declared = in.getShort(REASON_LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
        final int length = Math.min(declared, Math.min(MAX_REASON_LENGTH, privateData.length - REASON_OFFSET));
        final char[] reason = new char[length];
        for (int i = 0; i < length; i++) {
            final char c = (char) (privateData[REASON_OFFSET + i] & 0xFF);
            reason[i] = isPrintable(c) ? c : '?';
        }
        return new String(reason);
    }

    private static boolean isPrintable(final char c) {
        return c >= 0x20 && c < 0x7F;
    }
}
