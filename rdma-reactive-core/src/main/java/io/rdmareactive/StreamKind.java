package io.rdmareactive;

import io.rdmareactive.internal.protocol.OpenFrameFlyweight;

/** The interaction models a stream can carry, as RSocket names them. */
public enum StreamKind {
    /** One message to the server, no answer; the sender learns only that it was sent. */
    FIRE_AND_FORGET(OpenFrameFlyweight.FIRE_AND_FORGET),
    /** One message to the server, one message back. */
    REQUEST_RESPONSE(OpenFrameFlyweight.REQUEST_RESPONSE),
    /** One message to the server, a stream of messages back. */
    REQUEST_STREAM(OpenFrameFlyweight.REQUEST_STREAM),
    /** A stream of messages each way. */
    CHANNEL(OpenFrameFlyweight.CHANNEL);

    private final int code;

    StreamKind(final int code) {
        this.code = code;
    }

    /** @return the kind's code in an OPEN frame ({@link OpenFrameFlyweight#kind()}) */
    int code() {
        return code;
    }

    /** @return the kind of an OPEN frame's code, or null for a code no kind has */
    static StreamKind of(final int code) {
        for (final StreamKind kind : KINDS) { // values() would copy the array, once per stream opened
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }

    private static final StreamKind[] KINDS = values();
}
