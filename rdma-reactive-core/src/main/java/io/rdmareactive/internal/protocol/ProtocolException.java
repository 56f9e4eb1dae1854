package io.rdmareactive.internal.protocol;

/** A connection could not be set up under the protocol; the message says why, for both sides to read. */
public final class ProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProtocolException(final String message) {
        super(message);
    }

    public ProtocolException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
