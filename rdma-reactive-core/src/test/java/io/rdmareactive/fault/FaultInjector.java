package io.rdmareactive.fault;

import java.util.SplittableRandom;

/**
 * Decides, from a seed, when the one fault of a run strikes and for how long: the n-th completion, post or poll.
 * The same fault and seed strike at the same point of the same traffic, so a failing case replays exactly. It strikes
 * once per run: each wrapper checks {@link #injected()} first, so a connection that comes after the struck one (a
 * reconnect that finds the faulty device still open) is spared, whatever the timing.
 */
public final class FaultInjector {

    private final Fault fault;
    private final long seed;
    /** The completion, post or poll (counted from 1) at which the fault strikes. */
    private final long trigger;
    /** How many polls a delay or a withholding lasts. */
    private final int window;
    private volatile String injected;

    /**
     * @param fault the fault to inject, once
     * @param seed  chooses the point it strikes (after some traffic) and how long delays last
     */
    public FaultInjector(final Fault fault, final long seed) {
        this.fault = fault;
        this.seed = seed;
        final SplittableRandom random = new SplittableRandom(seed);
        this.trigger = switch (fault) {
            // the receive repost happens after every 64 receives: strike at one of the first few reposts
            case FAIL_POST_RECEIVE -> 2 + random.nextInt(3);
            default -> 20 + random.nextInt(200);
        };
        this.window = 5 + random.nextInt(200);
    }

    public Fault fault() {
        return fault;
    }

    public long seed() {
        return seed;
    }

    long trigger() {
        return trigger;
    }

    int window() {
        return window;
    }

    /** Records that the fault struck, and how (once). */
    void struck(final String what) {
        if (injected == null) {
            injected = what + " (fault " + fault + ", seed " + seed + ")";
        }
    }

    /** @return what was injected, or null if the fault never struck (the traffic was too short) */
    public String injected() {
        return injected;
    }

    @Override
    public String toString() {
        return fault + " seed " + seed + " at " + trigger + " window " + window;
    }
}
