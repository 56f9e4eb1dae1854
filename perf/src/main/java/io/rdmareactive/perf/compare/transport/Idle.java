package io.rdmareactive.perf.compare.transport;

import io.rdmareactive.internal.driver.IdleStrategies;
import java.util.Locale;
import org.agrona.concurrent.IdleStrategy;

/**
 * The idle strategy every polling thread of the run uses: the comparison's own, Aeron's driver, rdma-reactive's event
 * loops. It is written in rdma-reactive's grammar ({@link IdleStrategies}: {@code busy-spin}, {@code yielding},
 * {@code backoff[:maxSpins=,maxYields=,minPark=,maxPark=]}, {@code sleeping[:<duration>]}, {@code no-op}) and read by
 * rdma-reactive's parser for every transport, so one name is the same Agrona strategy with the same parameters for
 * Aeron, the raw SPI loops and the reactive runtimes.
 *
 * @param spec the strategy as configured, blanks around it dropped and in lower case
 */
public record Idle(String spec) {

    /** Yields the core to any runnable thread between polls: sane on a 2-core machine. */
    public static final Idle YIELDING = parse("yielding");
    /** Agrona's backoff defaults: 10 spins, 5 yields, then parks from 1 us doubling up to 1 ms. */
    public static final Idle BACKOFF = parse("backoff");
    /** Never gives the core away: lowest latency when there are more cores than polling threads. */
    public static final Idle BUSY_SPIN = parse("busy-spin");
    /** Not a run's strategy: how setup waits (for a publication to connect) sleep between looks, 100 us. */
    public static final Idle WAITING = parse("sleeping:100us");

    /** @throws IllegalArgumentException if the form or a parameter is not valid; the message lists the valid forms */
    public Idle {
        IdleStrategies.parse(spec);
    }

    /**
     * @param value one of {@link IdleStrategies}' forms, in any case
     * @return the strategy
     * @throws IllegalArgumentException if the form or a parameter is not valid; the message lists the valid forms
     */
    public static Idle parse(final String value) {
        return new Idle(value.strip().toLowerCase(Locale.ROOT));
    }

    /** @return a new Agrona strategy of this kind (strategies hold per-thread state) */
    public IdleStrategy newStrategy() {
        return IdleStrategies.parse(spec);
    }

    @Override
    public String toString() {
        return spec;
    }
}
