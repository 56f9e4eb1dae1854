package io.rdmareactive.spi;

/**
 * A reliable connected queue pair: a send queue and a receive queue whose work completes on completion queues.
 *
 * <p>The post methods are the hot path: they allocate nothing, take no lock and throw nothing on the data path; they
 * return a {@link PostStatus}. One thread posts sends and one thread posts receives at a time (they may be the same
 * thread); completions may be polled on another. A request that fails (bad key, out of bounds, no receive posted,
 * dead peer) completes with an error {@link CompletionStatus} even if it was not signalled, and moves the queue pair
 * to {@link QueuePairState#ERROR}, which flushes everything outstanding.
 */
public interface QueuePair extends AutoCloseable {

    /** @return the queue pair number, unique on its device, as completions report it */
    int number();

    /** @return the current state */
    QueuePairState state();

    /** @return why the queue pair entered {@link QueuePairState#ERROR}, or null if it has not */
    String errorReason();

    /** @return the private data the peer sent when the connection was set up */
    byte[] peerPrivateData();

    /** @return a description of the peer for messages (a process, a host and port) */
    String peerDescription();

    /**
     * This end of the connection, as authentication binds it: on verbs its GID and queue-pair number, on shared
     * memory its device id and queue-pair number. The peer's {@link #peerEndpoint()} is the same bytes, and two
     * connections never share an endpoint pair, so a handshake relayed from one connection to another does not
     * check. Known once the queue pair is connected, and before that in the functions that make a connect request's
     * or an accept's private data.
     *
     * @return the endpoint's bytes (a copy)
     */
    byte[] localEndpoint();

    /** @return the peer's end of the connection, as the peer's {@link #localEndpoint()} gives it (a copy) */
    byte[] peerEndpoint();

    /** @return a reusable batch of up to {@code capacity} send requests for this queue pair */
    SendWorkRequest newSendRequest(int capacity);

    /** @return a reusable batch of up to {@code capacity} receive requests for this queue pair */
    ReceiveWorkRequest newReceiveRequest(int capacity);

    /** @return a {@link PostStatus}; on failure {@link SendWorkRequest#failedIndex()} says where it stopped */
    int postSend(SendWorkRequest request);

    /** @return a {@link PostStatus}; on failure {@link ReceiveWorkRequest#failedIndex()} says where it stopped */
    int postReceive(ReceiveWorkRequest request);

    /**
     * Where a range of the peer's registered memory is mapped in this process, for providers with
     * {@link DeviceCapability#DIRECT_PEER_ACCESS}: the caller may write it directly, as an RDMA WRITE would (with the
     * same bounds, key and rights checked once, here), until it closes this queue pair; nothing completes for such a
     * write, and the peer learns of it only from what the caller writes there. The mapping lives as long as the queue
     * pair: close it only once no thread writes through the address any more.
     *
     * @param remoteAddress the peer's address, as its handshake gave it
     * @param length        bytes from there
     * @param rkey          the peer's key of that memory
     * @return the address in this process, or 0 if the provider cannot map peer memory, the queue pair is not
     *     connected, or the range is not writable memory of the peer under that key
     */
    default long peerMemoryAddress(final long remoteAddress, final long length, final int rkey) {
        return 0;
    }

    /**
     * Disconnects: both sides move to {@link QueuePairState#ERROR}, outstanding work is flushed, and the peer's device
     * reports {@link ConnectionEvent.Type#DISCONNECTED}. Idempotent.
     */
    void disconnect();

    /** Disconnects if connected and destroys the queue pair. Idempotent. */
    @Override
    void close();
}
