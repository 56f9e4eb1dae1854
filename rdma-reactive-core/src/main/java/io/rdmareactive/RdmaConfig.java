package io.rdmareactive;

import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.internal.protocol.ProtocolOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

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
 * @param wiretap          the logger category every frame is logged under at DEBUG, or null for none
 * @param metrics          whether Micrometer meters are registered in {@code Metrics.globalRegistry}
 */
record RdmaConfig(String provider, String address, Path directory, int maxStreams, int ringCapacity,
                  int maxMessageLength, Duration keepalive, Duration livenessTimeout, int prefetch, String idle,
                  Duration connectTimeout, Duration requestTimeout, CodecRegistry codecs, int maxConnections,
                  int maxPendingHandshakes, long maxRegisteredBytes, byte[] secret, RdmaRuntime runtime,
                  String wiretap, boolean metrics) {

    /** The builders' defaults; the protocol's settings (rings, message length, liveness) are the protocol's own. */
    static final RdmaConfig DEFAULTS = new RdmaConfig("auto", null, null, ProtocolOptions.DEFAULTS.maxStreams(),
        ProtocolOptions.DEFAULTS.ringCapacity(), ProtocolOptions.DEFAULTS.maxMessageLength(),
        ProtocolOptions.DEFAULTS.keepaliveInterval(), ProtocolOptions.DEFAULTS.livenessTimeout(), 256, defaultIdle(),
        Duration.ofSeconds(10), Duration.ofSeconds(30), CodecRegistry.defaults(), 1024, 64, 0, null, null,
        null, false);

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
        return with(copy -> copy.provider = value);
    }

    RdmaConfig withAddress(final String value) {
        return with(copy -> copy.address = value);
    }

    RdmaConfig withDirectory(final Path value) {
        return with(copy -> copy.directory = value);
    }

    RdmaConfig withRings(final int streams, final int capacity) {
        return with(copy -> {
            copy.maxStreams = streams;
            copy.ringCapacity = capacity;
        });
    }

    RdmaConfig withMaxMessageLength(final int value) {
        return with(copy -> copy.maxMessageLength = value);
    }

    RdmaConfig withLiveness(final Duration interval, final Duration timeout) {
        return with(copy -> {
            copy.keepalive = interval;
            copy.livenessTimeout = timeout;
        });
    }

    RdmaConfig withPrefetch(final int value) {
        return with(copy -> copy.prefetch = value);
    }

    RdmaConfig withIdle(final String value) {
        return with(copy -> copy.idle = value);
    }

    RdmaConfig withRequestTimeout(final Duration value) {
        return with(copy -> copy.requestTimeout = value);
    }

    RdmaConfig withConnectTimeout(final Duration value) {
        return with(copy -> copy.connectTimeout = value);
    }

    RdmaConfig withCodecs(final CodecRegistry value) {
        return with(copy -> copy.codecs = value);
    }

    RdmaConfig withMaxConnections(final int value) {
        return with(copy -> copy.maxConnections = value);
    }

    RdmaConfig withMaxPendingHandshakes(final int value) {
        return with(copy -> copy.maxPendingHandshakes = value);
    }

    RdmaConfig withMaxRegisteredBytes(final long value) {
        return with(copy -> copy.maxRegisteredBytes = value);
    }

    RdmaConfig withSecret(final byte[] value) {
        return with(copy -> copy.secret = value);
    }

    RdmaConfig withRuntime(final RdmaRuntime value) {
        return with(copy -> copy.runtime = value);
    }

    RdmaConfig withWiretap(final String category) {
        return with(copy -> copy.wiretap = category);
    }

    RdmaConfig withMetrics(final boolean value) {
        return with(copy -> copy.metrics = value);
    }

    /** @return a copy of this config with {@code change} applied, checked by the canonical constructor */
    private RdmaConfig with(final Consumer<Copy> change) {
        final Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /**
     * A mutable copy of every component, which {@link #with} changes and builds into a new config: with the record's
     * header, the only place that lists the components, so a new one is added here and there.
     */
    private static final class Copy {
        private String provider;
        private String address;
        private Path directory;
        private int maxStreams;
        private int ringCapacity;
        private int maxMessageLength;
        private Duration keepalive;
        private Duration livenessTimeout;
        private int prefetch;
        private String idle;
        private Duration connectTimeout;
        private Duration requestTimeout;
        private CodecRegistry codecs;
        private int maxConnections;
        private int maxPendingHandshakes;
        private long maxRegisteredBytes;
        private byte[] secret;
        private RdmaRuntime runtime;
        private String wiretap;
        private boolean metrics;

        private Copy(final RdmaConfig from) {
            provider = from.provider;
            address = from.address;
            directory = from.directory;
            maxStreams = from.maxStreams;
            ringCapacity = from.ringCapacity;
            maxMessageLength = from.maxMessageLength;
            keepalive = from.keepalive;
            livenessTimeout = from.livenessTimeout;
            prefetch = from.prefetch;
            idle = from.idle;
            connectTimeout = from.connectTimeout;
            requestTimeout = from.requestTimeout;
            codecs = from.codecs;
            maxConnections = from.maxConnections;
            maxPendingHandshakes = from.maxPendingHandshakes;
            maxRegisteredBytes = from.maxRegisteredBytes;
            secret = from.secret;
            runtime = from.runtime;
            wiretap = from.wiretap;
            metrics = from.metrics;
        }

        private RdmaConfig build() {
            return new RdmaConfig(provider, address, directory, maxStreams, ringCapacity, maxMessageLength, keepalive,
                livenessTimeout, prefetch, idle, connectTimeout, requestTimeout, codecs, maxConnections,
                maxPendingHandshakes, maxRegisteredBytes, secret, runtime, wiretap, metrics);
        }
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
