package io.rdmareactive.internal.protocol;

/** The frame types of the stream rings. */
final class FrameTypes {

    static final short PAD = FrameLayout.TYPE_PAD;
    static final short DATA = FrameLayout.TYPE_DATA;
    static final short COMPLETE = 4;
    static final short ERROR = 5;
    static final short KEEPALIVE = 7;

    private FrameTypes() {
    }

    static boolean isKnown(final short type) {
        return type >= 0 && type <= 8;
    }
}
