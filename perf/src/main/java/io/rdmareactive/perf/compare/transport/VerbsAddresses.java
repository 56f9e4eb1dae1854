package io.rdmareactive.perf.compare.transport;

import java.util.concurrent.atomic.AtomicInteger;

/** A port of its own for every verbs session (base port + 0, 1, 2...), so no listener reuses a port just closed. */
final class VerbsAddresses {

    private static final AtomicInteger SESSIONS = new AtomicInteger();

    private VerbsAddresses() {
    }

    /**
     * @param base {@code IP:PORT}
     * @return {@code IP:(PORT + n)} for the {@code n}th session of this JVM
     */
    static String next(final String base) {
        final int colon = base.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("a verbs address is IP:PORT, not '" + base + "'");
        }
        final int port = Integer.parseInt(base.substring(colon + 1)) + SESSIONS.getAndIncrement();
        if (port > 65535) {
            throw new IllegalArgumentException("no port left above " + base);
        }
        return base.substring(0, colon + 1) + port;
    }
}
