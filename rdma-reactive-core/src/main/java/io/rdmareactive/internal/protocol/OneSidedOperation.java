package io.rdmareactive.internal.protocol;

/**
 * One one-sided operation an application asked of a connection ({@link ProtocolConnection#submitOneSided}): an RDMA
 * READ or WRITE between a local region and the peer's memory, or a 64-bit atomic on a word of the peer's memory. The
 * connection's loop posts it on the connection's queue pair, in the order submitted, and tells it the outcome once,
 * on the loop, outside the polling of completions.
 */
public interface OneSidedOperation {

    /** The connection ended before the operation completed: {@link #onFailed}'s status then. */
    int CONNECTION_ENDED = -1;

    /** @return a {@link io.rdmareactive.spi.WorkRequestOpcode}: RDMA_READ, RDMA_WRITE, or one of the two atomics */
    int opcode();

    /** @return the local address read from (WRITE) or written into (READ); unused by the atomics */
    long localAddress();

    /** @return the bytes moved (8 for the atomics) */
    int length();

    /** @return the local key of the memory at {@link #localAddress()}; unused by the atomics */
    int lkey();

    /** @return the peer's address, as its descriptor names it */
    long remoteAddress();

    /** @return the peer's remote key */
    int rkey();

    /** @return the compare value of a compare-and-swap, the addend of a fetch-and-add */
    long compareAdd();

    /** @return the swap value of a compare-and-swap */
    long swap();

    /**
     * The adapter reported the operation complete (the loop).
     *
     * @param original for an atomic, the word's value before it (compare-and-swap swapped when it equals the compare
     *                 value); 0 otherwise
     */
    void onCompleted(long original);

    /**
     * The operation failed (the loop): the adapter reported an error for it, which ends the connection as a reliable
     * connection's queue pair goes to its error state, or the connection ended before it completed.
     *
     * @param status a {@link io.rdmareactive.spi.CompletionStatus}, or {@link #CONNECTION_ENDED}
     * @param reason what the adapter or the connection said
     */
    void onFailed(int status, String reason);
}
