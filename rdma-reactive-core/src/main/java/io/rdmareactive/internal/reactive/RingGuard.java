package io.rdmareactive.internal.reactive;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps a connection's rings mapped while a thread other than its event loop writes into them. Outbound messages
 * are encoded on the thread that emits them, straight into the send ring; the ring's memory is unmapped when the
 * connection closes, on its loop. A sender {@link #enter}s before it touches the ring and {@link #exit}s after; the
 * loop {@link #close}s the guard first and unmaps only once it is {@link #isQuiescent quiescent}, so no sender is
 * ever inside unmapped memory, and no sender enters once the connection is closing.
 *
 * <p>Two atomic operations per drain, no lock, no allocation, never blocks.
 */
public final class RingGuard {

    private static final int CLOSED = 1 << 30;

    private final AtomicInteger state = new AtomicInteger();

    /** @return true if the rings may be touched until {@link #exit()}; false once closing (touch nothing) */
    public boolean enter() {
        if (state.incrementAndGet() >= CLOSED) {
            state.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Leaves what {@link #enter()} entered. */
    public void exit() {
        state.decrementAndGet();
    }

    /** No sender enters from now on. Idempotent. */
    public void close() {
        int current;
        do {
            current = state.get();
            if (current >= CLOSED) {
                return;
            }
        } while (!state.compareAndSet(current, current + CLOSED));
    }

    /** @return true once {@link #close()} was called */
    public boolean isClosed() {
        return state.get() >= CLOSED;
    }

    /** @return true once closed and no sender is inside: the rings may be unmapped */
    public boolean isQuiescent() {
        return state.get() == CLOSED;
    }
}
