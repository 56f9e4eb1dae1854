package io.rdmareactive;

import java.time.Duration;

/**
 * The values {@link RdmaServer} and {@link RdmaClient} use for what they are not told, in one place for integrations
 * (the Micronaut module's configuration starts from these) and for documentation. They are the builders' own defaults,
 * read from them, so the two cannot differ.
 */
public final class RdmaDefaults {

    /** Streams per connection, the control stream included ({@code rings(streams, capacity)}). */
    public static final int STREAMS = RdmaConfig.DEFAULTS.maxStreams();
    /** Bytes of each stream ring, each way ({@code rings(streams, capacity)}). */
    public static final int RING_CAPACITY = RdmaConfig.DEFAULTS.ringCapacity();
    /** The largest message, in bytes ({@code maxMessageLength}). */
    public static final int MAX_MESSAGE_LENGTH = RdmaConfig.DEFAULTS.maxMessageLength();
    /** Messages granted to the peer ahead of the subscriber's consumption ({@code prefetch}). */
    public static final int PREFETCH = RdmaConfig.DEFAULTS.prefetch();
    /** How often an idle connection proves it is alive ({@code liveness(keepalive, timeout)}). */
    public static final Duration KEEPALIVE = RdmaConfig.DEFAULTS.keepalive();
    /** How long a silent peer is tolerated before its connection fails ({@code liveness(keepalive, timeout)}). */
    public static final Duration LIVENESS_TIMEOUT = RdmaConfig.DEFAULTS.livenessTimeout();
    /** How long a client waits for the server to answer ({@code connectTimeout}). */
    public static final Duration CONNECT_TIMEOUT = RdmaConfig.DEFAULTS.connectTimeout();
    /** How long {@link Connection#requestResponse} waits for its answer ({@code requestTimeout}). */
    public static final Duration REQUEST_TIMEOUT = RdmaConfig.DEFAULTS.requestTimeout();
    /** The most connections a server serves at once ({@code maxConnections}). */
    public static final int MAX_CONNECTIONS = RdmaConfig.DEFAULTS.maxConnections();
    /** The most handshakes a server runs at once ({@code maxPendingHandshakes}). */
    public static final int MAX_PENDING_HANDSHAKES = RdmaConfig.DEFAULTS.maxPendingHandshakes();

    private RdmaDefaults() {
    }
}
