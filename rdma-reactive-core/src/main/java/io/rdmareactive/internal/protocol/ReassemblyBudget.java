package io.rdmareactive.internal.protocol;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The direct memory a runtime lets its inbound streams hold for messages that arrive in fragments (their reassembly
 * buffers, {@link MessageAssembler}): a peer that begins many large messages and never finishes them holds no more
 * than this, and a stream that would pass it ends its connection with an error that says so, instead of the process
 * running out of direct memory. A runtime gives it half of the JVM's direct memory limit ({@code -XX:MaxDirectMemorySize},
 * which defaults to the heap's maximum). Each connection draws on it through a {@link #share} of its own: at most a
 * quarter of it (and at least one message of the maximum length), so that one peer cannot take all of it from the
 * others.
 */
public final class ReassemblyBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();
    /** The budget this one is a share of, or null for a runtime's own. */
    private final ReassemblyBudget parent;
    /** What the budget is, for the error of a refused growth. */
    private final String what;

    /** @param limit bytes, at least 0: a runtime's budget (half of {@code -XX:MaxDirectMemorySize}) */
    public ReassemblyBudget(final long limit) {
        this(limit, null, "this process lets inbound streams hold for messages that arrive in fragments (half of "
            + "-XX:MaxDirectMemorySize)");
    }

    private ReassemblyBudget(final long limit, final ReassemblyBudget parent, final String what) {
        if (limit < 0) {
            throw new IllegalArgumentException("a reassembly budget cannot be negative: " + limit);
        }
        this.limit = limit;
        this.parent = parent;
        this.what = what;
    }

    /**
     * @param maxMessageLength the connection's largest message
     * @return a connection's share of this budget: a quarter of it, at least one message of {@code maxMessageLength}
     *     (this budget itself where that is all of it); what the share takes, this budget takes too
     */
    public ReassemblyBudget share(final long maxMessageLength) {
        final long share = Math.max(limit / 4, maxMessageLength);
        if (share >= limit) {
            return this; // one message of the maximum length takes all of it: the share is the budget itself
        }
        return new ReassemblyBudget(share, this, "one connection may hold for messages that arrive in fragments "
            + "(a quarter of the " + limit + " the process lets its inbound streams hold, half of "
            + "-XX:MaxDirectMemorySize, and at least one message of the maximum length)");
    }

    /** @return the budget, in bytes */
    public long limit() {
        return limit;
    }

    /** @return bytes held now */
    public long used() {
        return used.get();
    }

    /**
     * Takes {@code bytes} from this budget and the one it is a share of.
     *
     * @return null if they were taken; else, taking nothing, what they would pass ("N bytes of direct memory ...")
     */
    String reserve(final long bytes) {
        if (!take(bytes)) {
            return limit + " bytes of direct memory " + what + " (" + used.get() + " held now)";
        }
        if (parent != null) {
            final String refused = parent.reserve(bytes);
            if (refused != null) {
                used.addAndGet(-bytes);
                return refused;
            }
        }
        return null;
    }

    private boolean take(final long bytes) {
        long now;
        do {
            now = used.get();
            if (now + bytes > limit) {
                return false;
            }
        } while (!used.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives {@code bytes} back, here and to the budget this one is a share of. */
    void release(final long bytes) {
        used.addAndGet(-bytes);
        if (parent != null) {
            parent.release(bytes);
        }
    }
}
