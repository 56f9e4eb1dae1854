package io.rdmareactive;

/**
 * A connection ended before a stream did: the peer died or went silent past the liveness timeout, it broke the
 * protocol, the connection was closed, or it could not be set up. The message says which.
 */
public class RdmaConnectionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RdmaConnectionException(final String message) {
        super(message);
    }

    public RdmaConnectionException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
