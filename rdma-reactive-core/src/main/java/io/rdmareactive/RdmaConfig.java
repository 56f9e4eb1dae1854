package io.rdmareactive;

import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.internal.protocol.ProtocolOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What {@link RdmaServer} and {@link RdmaClient} are configured with; immutable, each setter returns a copy.
 *
 * @param provider         {@code auto}, {@code shm} or {@code verbs}
 * @param address          where the server listens / the client connects (shared memory: a name)
 * @param directory        the shared-memory provider's directory, or null for its default
 * @param maxStreams       streams per connection (the control stream included)
 * @param ringCapacity     bytes of each stream ring, each way (power of two)
 * @param maxMessageLength the largest message; larger ones are fragmented up to this
 * @param keepalive        how often an idle connection proves it is alive
 * @param livenessTimeout  how long a silent peer is tolerated
 * @param prefetch         messages granted to the peer ahead of the subscriber's consumption, at most
 * @param idle             the driver's idle strategy: busy-spin, yielding, backoff or sleeping
 * @param connectTimeout   how long to wait for the server to answer
 * @param requestTimeout   how long {@link Connection#requestResponse} waits for its answer
 * @param codecs           the codecs that {@code receive(Class)} and {@code send(Publisher, Class)} pick by type
 * @param maxConnections   the most connections a server serves at once (a client: unused)
 * @param maxPendingHandshakes the most handshakes a server runs at once (a client: unused)
 * @param maxRegisteredBytes the most bytes the runtime's device registers at once, 0 for the device's default
 * @param secret           the shared secret of the authenticated handshake (a copy, at least 16 bytes), or null
 * @param runtime          the runtime to run on, or null for the process's shared one
 */
record RdmaConfig(String provider, String address, Path directory, int maxStreams, int ringCapacity,
                  int maxMessageLength, Duration keepalive, Duration livenessTimeout, int prefetch, String idle,
                  Duration connectTimeout, Duration requestTimeout, CodecRegistry codecs, int maxConnections,
                  int maxPendingHandshakes, long maxRegisteredBytes, byte[] secret, RdmaRuntime runtime) {

    /** The builders' defaults; the protocol's settings (rings, message length, liveness) are the protocol's own. */
    static final RdmaConfig DEFAULTS = new RdmaConfig("auto", null, null, ProtocolOptions.DEFAULTS.maxStreams(),
        ProtocolOptions.DEFAULTS.ringCapacity(), ProtocolOptions.DEFAULTS.maxMessageLength(),
        ProtocolOptions.DEFAULTS.keepaliveInterval(), ProtocolOptions.DEFAULTS.livenessTimeout(), 256, defaultIdle(),
        Duration.ofSeconds(10), Duration.ofSeconds(30), CodecRegistry.defaults(), 1024, 64, 0, null, null);

    RdmaConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(codecs, "codecs");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive: " + maxConnections);
        }
        if (maxPendingHandshakes < 1) {
            throw new IllegalArgumentException("maxPendingHandshakes must be positive: " + maxPendingHandshakes);
        }
        if (maxRegisteredBytes < 0) {
            throw new IllegalArgumentException("maxRegisteredBytes must be positive, or 0 for no limit: "
                + maxRegisteredBytes);
        }
        if (prefetch < 1) {
            throw new IllegalArgumentException("prefetch must be positive: " + prefetch);
        }
    }

    /** The {@code rdma.idle} system property, else backoff on small machines and busy-spin on larger ones. */
    static String defaultIdle() {
        return io.rdmareactive.internal.driver.IdleStrategies.configured();
    }

    ProtocolOptions protocol() {
        return new ProtocolOptions(maxStreams, ringCapacity, maxMessageLength, keepalive, livenessTimeout);
    }

    String requireAddress(final String what) {
        if (address == null) {
            throw new IllegalStateException(what + " needs an address: call address(\"name\") first");
        }
        return address;
    }

    RdmaConfig withProvider(final String value) {
        return new RdmaConfig(value, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withAddress(final String value) {
        return new RdmaConfig(provider, value, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withDirectory(final Path value) {
        return new RdmaConfig(provider, address, value, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withRings(final int streams, final int capacity) {
        return new RdmaConfig(provider, address, directory, streams, capacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withMaxMessageLength(final int value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, value, keepalive, livenessTimeout,
            prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections, maxPendingHandshakes,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withLiveness(final Duration interval, final Duration timeout) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, interval,
            timeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections, maxPendingHandshakes,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withPrefetch(final int value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, value, idle, connectTimeout, requestTimeout, codecs, maxConnections, maxPendingHandshakes,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withIdle(final String value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, value, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withRequestTimeout(final Duration value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, value, codecs, maxConnections, maxPendingHandshakes,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withConnectTimeout(final Duration value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, value, requestTimeout, codecs, maxConnections, maxPendingHandshakes,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withCodecs(final CodecRegistry value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, value, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withMaxConnections(final int value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, value, maxPendingHandshakes,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withMaxPendingHandshakes(final int value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections, value,
            maxRegisteredBytes, secret, runtime);
    }

    RdmaConfig withMaxRegisteredBytes(final long value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, value, secret, runtime);
    }

    RdmaConfig withSecret(final byte[] value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, value, runtime);
    }

    RdmaConfig withRuntime(final RdmaRuntime value) {
        return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
            livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
            maxPendingHandshakes, maxRegisteredBytes, secret, value);
    }

    /** @return a reference to the runtime to run on: the one given, or the process's shared one for this config */
    RdmaRuntime acquireRuntime() {
        if (runtime == null) {
            return RdmaRuntime.shared(this);
        }
        if (runtime.isDisposed() || !runtime.retain()) {
            throw new IllegalStateException("the runtime " + runtime.name() + " was disposed; give runOn(...) a "
                + "running one, or leave it out to use the process's shared runtime");
        }
        final Throwable failure = runtime.failure().orElse(null);
        if (failure != null) {
            runtime.release();
            throw new IllegalStateException("the runtime " + runtime.name() + " is broken (" + failure + " broke an "
                + "event loop down, and every connection of that loop ended with it); dispose of it and give runOn(...) "
                + "a new one", failure);
        }
        return runtime;
    }
}
