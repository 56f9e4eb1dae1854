package io.rdmareactive.perf.compare.transport;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/** The idle strategy every polling thread of the run uses: the comparison's own, Aeron's driver, rdma-reactive's. */
public enum Idle {
    /** Never gives the core away: lowest latency when there are more cores than polling threads. */
    BUSY_SPIN("busy-spin"),
    /** Yields the core to any runnable thread between polls: sane on a 2-core machine. */
    YIELDING("yielding"),
    /** Spins, then yields, then parks from 1 us up to 100 us. */
    BACKOFF("backoff"),
    /** Parks 100 us between empty polls. */
    SLEEPING("sleeping");

    private final String label;

    Idle(final String label) {
        this.label = label;
    }

    /** @return the option's spelling, which is also rdma-reactive's name for the strategy */
    public String label() {
        return label;
    }

    /** @return a new Agrona strategy of this kind (strategies hold per-thread state) */
    public IdleStrategy newStrategy() {
        return switch (this) {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
                TimeUnit.MICROSECONDS.toNanos(100));
            case SLEEPING -> new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(100));
        };
    }

    /** @return the strategy for an option's value: busy-spin, yielding, backoff or sleeping */
    public static Idle parse(final String value) {
        for (final Idle idle : values()) {
            if (idle.label.equals(value.toLowerCase(Locale.ROOT))) {
                return idle;
            }
        }
        throw new IllegalArgumentException("unknown idle strategy '" + value
            + "': use busy-spin, yielding, backoff or sleeping");
    }

    @Override
    public String toString() {
        return label;
    }
}
