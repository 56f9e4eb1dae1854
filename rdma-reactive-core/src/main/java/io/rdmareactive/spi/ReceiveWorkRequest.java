package io.rdmareactive.spi;

/**
 * A reusable batch of receive work requests, created once by {@link QueuePair#newReceiveRequest(int)}; fill it with
 * {@link #clear()}, {@link #add(long)} and {@link #sge(long, int, int)}, then post it. A receive with no scatter
 * entry is legal: it absorbs an RDMA WRITE WITH IMMEDIATE. Nothing here allocates. Not thread safe.
 */
public interface ReceiveWorkRequest {

    /** @return the batch emptied */
    ReceiveWorkRequest clear();

    /**
     * Starts the next receive.
     *
     * @param wrId returned in the completion
     * @return this
     * @throws IllegalStateException if the batch is full
     */
    ReceiveWorkRequest add(long wrId);

    /** Appends a scatter entry to the current receive. */
    ReceiveWorkRequest sge(long address, int length, int lkey);

    /** @return the number of receives in the batch */
    int count();

    /** @return the most receives the batch can hold */
    int capacity();

    /** @return the index of the first receive not posted by the last post, or -1 after a post that posted all */
    int failedIndex();
}
