package io.rdmareactive.internal.protocol;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The direct memory a runtime lets its inbound streams hold for messages that arrive in fragments (their reassembly
 * buffers, {@link MessageAssembler}): a peer that begins many large messages and never finishes them holds no more
 * than this, and a stream that would pass it ends its connection with an error that says so, instead of the process
 * running out of direct memory. A runtime gives it half of the JVM's direct memory limit ({@code -XX:MaxDirectMemorySize},
 * which defaults to the heap's maximum).
 */
public final class ReassemblyBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** @param limit bytes, at least 0 */
    public ReassemblyBudget(final long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a reassembly budget cannot be negative: " + limit);
        }
        this.limit = limit;
    }

    /** @return the budget, in bytes */
    public long limit() {
        return limit;
    }

    /** @return bytes held now */
    public long used() {
        return used.get();
    }

    /** @return true if {@code bytes} more were taken; false, taking nothing, if they would pass the limit */
    boolean tryReserve(final long bytes) {
        long now;
        do {
            now = used.get();
            if (now + bytes > limit) {
                return false;
            }
        } while (!used.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives {@code bytes} back. */
    void release(final long bytes) {
        used.addAndGet(-bytes);
    }
}
