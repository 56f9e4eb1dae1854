package io.rdmareactive.spi;

/**
 * Registering memory would exceed a limit: the provider's limit on registered bytes (the locked-memory limit,
 * {@code ulimit -l} or systemd's {@code LimitMEMLOCK}, on verbs), or the space of the file system behind it.
 */
public final class RegistrationLimitException extends RdmaException {

    private static final long serialVersionUID = 1L;

    public RegistrationLimitException(final String message) {
        super(message);
    }
}
