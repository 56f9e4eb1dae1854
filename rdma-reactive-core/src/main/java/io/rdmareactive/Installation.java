package io.rdmareactive;

/**
 * What {@code connect()} and {@code bind()} signal when opening a runtime or a connection throws an {@link Error}: a
 * class or native library missing or of the wrong version, a JVM option missing that no check foresaw. Reactor
 * rethrows such errors instead of signalling them, which left the caller's {@code block()} waiting forever.
 */
final class Installation {

    private Installation() {
    }

    /** @return an exception that names the call and carries {@code error} */
    static RdmaConnectionException failed(final String call, final Error error) {
        return new RdmaConnectionException(call + " failed: " + error + " (a missing or mismatched class, native "
            + "library or JVM option: check the class path, the versions of the rdma-reactive artifacts and of "
            + "Agrona and Reactor, and the two JVM options in docs/getting-started.md)", error);
    }
}
