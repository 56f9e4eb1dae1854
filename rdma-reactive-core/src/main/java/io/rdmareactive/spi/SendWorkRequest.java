package io.rdmareactive.spi;

/**
 * A reusable batch of send work requests, created once by {@link QueuePair#newSendRequest(int)} and filled again
 * for every post: {@link #clear()}, then for each request {@link #add(long, int, int)} followed by its
 * {@link #sge(long, int, int) gather entries}, {@link #remote(long, int) remote address} and
 * {@link #immediate(int) immediate}. Posting the batch posts its requests in order with one call (one doorbell on
 * verbs). Nothing here allocates. Not thread safe: one per posting thread.
 */
public interface SendWorkRequest {

    /** @return the batch emptied, ready to be filled */
    SendWorkRequest clear();

    /**
     * Starts the next request of the batch.
     *
     * @param wrId   returned in the completion
     * @param opcode a {@link WorkRequestOpcode}
     * @param flags  {@link SendFlags}
     * @return this
     * @throws IllegalStateException if the batch is full (a programming error, not a data-path condition)
     */
    SendWorkRequest add(long wrId, int opcode, int flags);

    /** Appends a gather entry (local memory to send or write; for RDMA READ, where to put what is read). */
    SendWorkRequest sge(long address, int length, int lkey);

    /** Sets the remote address and rkey of a one-sided request. */
    SendWorkRequest remote(long address, int rkey);

    /**
     * Sets the operands of an atomic request ({@link WorkRequestOpcode#isAtomic}), after its {@link #remote remote
     * word} (8-byte aligned, in a region the peer registered with {@link Access#REMOTE_ATOMIC}) and its one 8-byte
     * {@link #sge local buffer} (which receives the word's value before the operation, in this host's byte order).
     *
     * @param compareAdd for compare-and-swap the value expected; for fetch-and-add the value added
     * @param swap       for compare-and-swap the value written if the word held the expected one; else ignored
     */
    SendWorkRequest atomic(long compareAdd, long swap);

    /** Sets the immediate of a WITH_IMM request. */
    SendWorkRequest immediate(int immediate);

    /** @return the number of requests in the batch */
    int count();

    /** @return the most requests the batch can hold */
    int capacity();

    /** @return the index of the first request not posted by the last post, or -1 after a post that posted all */
    int failedIndex();
}
