package io.rdmareactive.provider.verbs;

import java.util.Arrays;

/**
 * Private data framed so that it crosses the connection manager exactly. The CM delivers a fixed-size field (56 bytes
 * in a connect request, 196 in an accept, 148 in a reject), padded with zeros; the provider puts the length first, so
 * the peer gets back exactly the bytes that were given, one byte fewer than the CM allows.
 */
final class PrivateData {

    /** The CM's private data in a connect request of the TCP port space (an IB CM REQ's 92 bytes less its header). */
    static final int CM_CONNECT_LIMIT = 56;
    /** The CM's private data in a reject. */
    static final int CM_REJECT_LIMIT = 148;
    /** What users may put in a connect request or an accept. */
    static final int CONNECT_LIMIT = CM_CONNECT_LIMIT - 1;
    /** What users may put in a reject. */
    static final int REJECT_LIMIT = CM_REJECT_LIMIT - 1;

    private PrivateData() {
    }

    /** @return the data, prefixed with its length */
    static byte[] frame(final byte[] data, final int limit, final String what) {
        if (data.length > limit) {
            throw new IllegalArgumentException(what + " carries at most " + limit + " bytes of private data on verbs; "
                + "got " + data.length);
        }
        final byte[] framed = new byte[data.length + 1];
        framed[0] = (byte) data.length;
        System.arraycopy(data, 0, framed, 1, data.length);
        return framed;
    }

    /** @return the data a peer framed, or everything delivered if it was not framed by this provider */
    static byte[] unframe(final byte[] delivered) {
        if (delivered.length == 0) {
            return delivered;
        }
        final int length = Byte.toUnsignedInt(delivered[0]);
        if (length + 1 > delivered.length) {
            return delivered;
        }
        return Arrays.copyOfRange(delivered, 1, 1 + length);
    }
}
