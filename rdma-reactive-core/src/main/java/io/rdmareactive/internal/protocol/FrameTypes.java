package io.rdmareactive.internal.protocol;

/**
 * The frame types of the stream rings. DATA, COMPLETE and ERROR travel in-band in their stream's ring, so they keep
 * their order, and so does OPEN, the first frame of each use of a stream; REQUEST_N, CANCEL and KEEPALIVE travel in
 * the control stream (0), written by the driver.
 *
 * <pre>
 *  REQUEST_N body: 0 stream (int) | 4 use (int) | 8 n (long, &gt; 0)     the receiver may take n more messages
 *  CANCEL body:    0 stream (int) | 4 use (int)                         the receiver wants no more
 *  (use: which use of the stream, counted by OPEN frames on both sides, so a late frame of a finished request
 *   never touches the next one)
 *  ERROR body:     0 code (int)   | 4 message length (int) | 8 UTF-8 message
 *  OPEN body:      0 kind (int: 1 fire-and-forget, 2 request/response, 3 request/stream, 4 channel) | 4 reserved
 *  KEEPALIVE body: 0 sender's clock (long) | 8 received position of the control stream (long)
 * </pre>
 */
final class FrameTypes {

    static final short PAD = FrameLayout.TYPE_PAD;
    static final short DATA = FrameLayout.TYPE_DATA;
    static final short REQUEST_N = 2;
    static final short CANCEL = 3;
    static final short COMPLETE = 4;
    static final short ERROR = 5;
    static final short OPEN = 6;
    static final short KEEPALIVE = 7;

    private FrameTypes() {
    }

    static boolean isKnown(final short type) {
        return type >= 0 && type <= 8;
    }
}
