package io.rdmareactive.spi;

/**
 * A setup or control-path failure of a provider: opening a device, registering memory, connecting, accepting. The
 * message says what was wrong and what to do. The data path never throws; it returns status codes.
 */
public class RdmaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RdmaException(final String message) {
        super(message);
    }

    public RdmaException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
