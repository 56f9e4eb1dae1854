package io.rdmareactive.spi;

/** A peer's request to connect, answered exactly once with {@link #accept} or {@link #reject}. */
public interface ConnectRequest {

    /** @return the private data the peer sent */
    byte[] privateData();

    /** @return a description of the peer for messages */
    String peerDescription();

    /**
     * The peer's end of the connection it asks for, before it is answered: the bytes its queue pair's
     * {@link QueuePair#localEndpoint()} gives (on verbs its GID and queue-pair number, on shared memory its device id
     * and queue-pair number), so that a request's authentication can be bound to the queue pair that sent it.
     *
     * @return the endpoint's bytes (a copy)
     */
    byte[] peerEndpoint();

    /**
     * Accepts: creates a queue pair connected to the peer and sends it private data.
     *
     * @param options     the queue pair to create
     * @param privateData at most {@link DeviceLimits#maxPrivateDataLength()} bytes for the peer
     * @return the connected queue pair
     * @throws RdmaException if the peer went away meanwhile
     */
    default QueuePair accept(final QueuePairOptions options, final byte[] privateData) {
        return accept(options, queuePair -> privateData);
    }

    /**
     * Accepts with private data made once the queue pair exists, so that it can depend on the connection's
     * {@linkplain QueuePair#localEndpoint() endpoints} (an authenticated answer binds them).
     *
     * @param options the queue pair to create
     * @param answer  makes at most {@link DeviceLimits#maxPrivateDataLength()} bytes for the peer from the new queue
     *                pair, whose endpoints are known; what it throws fails the accept, and the queue pair is closed
     * @return the connected queue pair
     * @throws RdmaException if the peer went away meanwhile
     */
    QueuePair accept(QueuePairOptions options, java.util.function.Function<? super QueuePair, byte[]> answer);

    /**
     * Rejects; the peer's connect fails with {@link ConnectionRejectedException} carrying the private data.
     *
     * @param privateData why, for the peer; at most {@link DeviceLimits#maxRejectPrivateDataLength()} bytes
     */
    void reject(byte[] privateData);
}
