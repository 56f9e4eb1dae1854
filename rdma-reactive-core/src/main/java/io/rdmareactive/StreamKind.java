package io.rdmareactive;

/** The interaction models a stream can carry, as RSocket names them. */
public enum StreamKind {
    /** One message to the server, no answer; the sender learns only that it was sent. */
    FIRE_AND_FORGET(1),
    /** One message to the server, one message back. */
    REQUEST_RESPONSE(2),
    /** One message to the server, a stream of messages back. */
    REQUEST_STREAM(3),
    /** A stream of messages each way. */
    CHANNEL(4);

    private final int code;

    StreamKind(final int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    static StreamKind of(final int code) {
        for (final StreamKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }
}
