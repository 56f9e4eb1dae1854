package io.rdmareactive.perf.compare;

import org.agrona.DirectBuffer;

/**
 * One peer-kill peer's side of a transport: a server every other peer connects to, and a client connection to each
 * of them. What arrives goes to the {@link PeerLedger}; what the transport's API says about a failed connection too.
 */
interface PeerNode extends AutoCloseable {

    /** @return the address the other peers connect to */
    String address();

    /** Connects to {@code peer}'s server at {@code address}. */
    void connect(int peer, String address) throws Exception;

    /**
     * Tries to send one message to {@code peer} without blocking.
     *
     * @return whether it was taken; {@code false} also once the connection to it has failed (already reported)
     */
    boolean offer(int peer, DirectBuffer buffer, int length);

    @Override
    void close();
}
