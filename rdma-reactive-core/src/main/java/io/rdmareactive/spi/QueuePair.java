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

    /** @return a reusable batch of up to {@code capacity} send requests for this queue pair */
    SendWorkRequest newSendRequest(int capacity);

    /** @return a reusable batch of up to {@code capacity} receive requests for this queue pair */
    ReceiveWorkRequest newReceiveRequest(int capacity);

    /** @return a {@link PostStatus}; on failure {@link SendWorkRequest#failedIndex()} says where it stopped */
    int postSend(SendWorkRequest request);

    /** @return a {@link PostStatus}; on failure {@link ReceiveWorkRequest#failedIndex()} says where it stopped */
    int postReceive(ReceiveWorkRequest request);

    /**
     * Disconnects: both sides move to {@link QueuePairState#ERROR}, outstanding work is flushed, and the peer's device
     * reports {@link ConnectionEvent.Type#DISCONNECTED}. Idempotent.
     */
    void disconnect();

    /** Disconnects if connected and destroys the queue pair. Idempotent. */
    @Override
    void close();
}
