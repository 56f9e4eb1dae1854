package io.rdmareactive.perf.compare;

import io.rdmareactive.RemoteOperation;
import reactor.core.publisher.Mono;

/**
 * One kind of one-sided operation of the rma workload, as both of its modes issue it, with the check of what it
 * did. The {@code index}-th operation of a phase uses local slot {@code slot}; a check that fails throws
 * {@link IllegalStateException}, which fails the phase: no figure comes from a run whose data was wrong.
 */
interface OneSidedOperations {

    /** @return read, write or fetch-and-add */
    String name();

    /** @return the bytes each operation moves */
    int size();

    /** @return the {@code index}-th operation as its own {@code Mono}, with local slot 0 (one in flight) */
    Mono<?> one(long index);

    /** @return the {@code index}-th operation as a value for {@code RemoteRegion.execute}, with local slot {@code slot} */
    RemoteOperation pipelined(long index, int slot);

    /**
     * Checks the {@code index}-th operation, completed: its result as {@code execute} gives it (a read's or write's
     * length, an atomic's value before).
     */
    void completed(long index, int slot, long result);

    /** Checks, after a phase, what no single completion shows (the bytes written; the counter's last value). */
    void finish();

    /** @return how many operations were checked so far */
    long checked();
}
