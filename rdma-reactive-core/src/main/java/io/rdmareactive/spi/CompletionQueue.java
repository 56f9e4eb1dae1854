package io.rdmareactive.spi;

/**
 * Where work completes. One thread polls a completion queue; posting threads and the device fill it.
 *
 * <p>{@link #poll(CompletionHandler, int)} is the hot path: it allocates nothing and throws nothing.
 */
public interface CompletionQueue extends AutoCloseable {

    /** Returned by {@link #poll(CompletionHandler, int)} after the queue overflowed: it is unusable from then on. */
    int OVERRUN = -1;

    /**
     * @param handler receives each completion, on the calling thread
     * @param limit   at most this many completions
     * @return the number of completions handled, or {@link #OVERRUN}
     */
    int poll(CompletionHandler handler, int limit);

    /** @return how many completions it holds */
    int capacity();

    /** Destroys the completion queue; queue pairs that use it must be closed first. Idempotent. */
    @Override
    void close();
}
