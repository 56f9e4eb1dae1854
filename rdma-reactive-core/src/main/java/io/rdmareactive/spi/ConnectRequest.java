package io.rdmareactive.spi;

/** A peer's request to connect, answered exactly once with {@link #accept} or {@link #reject}. */
public interface ConnectRequest {

    /** @return the private data the peer sent */
    byte[] privateData();

    /** @return a description of the peer for messages */
    String peerDescription();

    /**
     * Accepts: creates a queue pair connected to the peer and sends it private data.
     *
     * @param options     the queue pair to create
     * @param privateData at most {@link DeviceLimits#maxPrivateDataLength()} bytes for the peer
     * @return the connected queue pair
     * @throws RdmaException if the peer went away meanwhile
     */
    QueuePair accept(QueuePairOptions options, byte[] privateData);

    /**
     * Rejects; the peer's connect fails with {@link ConnectionRejectedException} carrying the private data.
     *
     * @param privateData why, for the peer; at most {@link DeviceLimits#maxRejectPrivateDataLength()} bytes
     */
    void reject(byte[] privateData);
}
