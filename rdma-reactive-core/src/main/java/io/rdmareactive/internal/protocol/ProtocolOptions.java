package io.rdmareactive.internal.protocol;

import java.time.Duration;

/**
 * The protocol's settings for one connection: fixed when it is set up, so memory per connection is known then.
 *
 * @param maxStreams       stream slots per connection, the control stream (0) included
 * @param ringCapacity     bytes of each stream's ring, each direction (a power of two)
 * @param maxMessageLength the largest message, fragments reassembled
 * @param keepaliveInterval how often an idle connection says it is alive
 * @param livenessTimeout  how long a silent peer is tolerated before the connection ends with an error
 */
public record ProtocolOptions(int maxStreams, int ringCapacity, int maxMessageLength, Duration keepaliveInterval,
                              Duration livenessTimeout) {

    /**
     * The defaults, the API's too ({@code RdmaConfig} takes them from here): 16 streams of 64 KiB rings, 16 MiB
     * messages, keepalive every 1 s, dead after 5 s.
     */
    public static final ProtocolOptions DEFAULTS = new ProtocolOptions(16, 64 * 1024, 16 * 1024 * 1024,
        Duration.ofSeconds(1), Duration.ofSeconds(5));

    /** Checks the settings against what a handshake can carry ({@link HandshakeFlyweight}'s bounds). */
    public ProtocolOptions {
        if (maxStreams < HandshakeFlyweight.MIN_STREAMS || maxStreams > HandshakeFlyweight.MAX_STREAMS) {
            throw new IllegalArgumentException("maxStreams must be 2 to 1024: " + maxStreams);
        }
        if (!HandshakeFlyweight.isValidRingCapacity(ringCapacity)) {
            throw new IllegalArgumentException("ringCapacity must be a power of two from 4096 to 16 MiB: " + ringCapacity);
        }
        if (maxMessageLength < HandshakeFlyweight.MIN_MESSAGE_LENGTH
            || maxMessageLength > HandshakeFlyweight.MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("maxMessageLength must be 1 KiB to 1 GiB: " + maxMessageLength);
        }
        if (keepaliveInterval.isNegative() || keepaliveInterval.isZero()
            || livenessTimeout.compareTo(keepaliveInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("the liveness timeout must be at least twice the keepalive interval: "
                + keepaliveInterval + ", " + livenessTimeout);
        }
    }

    /** @return bytes of the region the peer writes into: receive rings, then one 64-byte credit line per stream */
    long remoteRegionLength() {
        return roundToPage(HandshakeFlyweight.requiredRegionLength(maxStreams, ringCapacity));
    }

    /** @return bytes of the region only this side writes: send rings, then one 64-byte staging line per stream */
    long localRegionLength() {
        return remoteRegionLength();
    }

    private static long roundToPage(final long length) {
        return (length + 4095) & -4096L;
    }
}
