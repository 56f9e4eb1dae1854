package io.rdmareactive.internal.reactive;

/** Makes the exceptions that subscribers get; the public API supplies its own exception types. */
public interface ErrorFactory {

    /** @return the error for a connection that ended: the peer died, went silent, broke the protocol, or closed */
    Throwable connectionFailed(String reason);

    /** @return the error the peer's producer ended its direction of a stream with */
    Throwable remoteError(int code, String message);
}
