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

    /**
     * Asks to be told of the next completion added to the queue, once: {@code wakeup} then runs, on a thread of the
     * provider, quickly and without throwing (it wakes the thread that polls this queue, which may be asleep). A poller
     * about to sleep calls it, then polls once more before it sleeps, since a completion added before the call may
     * not be told.
     *
     * @param wakeup what to run; the same object each time, from one poller
     * @return true if this call armed the queue (poll once more, then sleep); false if it was armed already and has
     *     not told of a completion since, or if this queue cannot tell of completions (its poller finds them only by
     *     polling, so it must not sleep for long)
     */
    default boolean armWakeup(final Runnable wakeup) {
        return false;
    }

    /** @return true if {@link #armWakeup} can tell of completions: a poller may stop polling this queue once armed */
    default boolean canWake() {
        return false;
    }

    /** @return how many completions it holds */
    int capacity();

    /** Destroys the completion queue; queue pairs that use it must be closed first. Idempotent. */
    @Override
    void close();
}
