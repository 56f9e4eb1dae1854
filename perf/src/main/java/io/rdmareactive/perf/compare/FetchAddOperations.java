package io.rdmareactive.perf.compare;

import io.rdmareactive.LocalRegion;
import io.rdmareactive.RemoteOperation;
import io.rdmareactive.RemoteRegion;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * One-sided fetch-and-add of 1 to the server region's counter. Results come in the order of the operations and this
 * side is the counter's only user, so each must be the value before it exactly, one more than the previous; after
 * the phase the counter, read back, must be one more than the last.
 */
final class FetchAddOperations implements OneSidedOperations {

    private final RemoteRegion remote;
    private final LocalRegion readBack;
    private final RegionLayout layout;
    private final Duration timeout;
    private long next = RegionLayout.COUNTER_START;
    private long checked;

    /** @param readBack at least 8 bytes, for the check after the phase */
    FetchAddOperations(final RemoteRegion remote, final LocalRegion readBack, final RegionLayout layout,
                       final Duration timeout) {
        this.remote = remote;
        this.readBack = readBack;
        this.layout = layout;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "fetch-and-add";
    }

    @Override
    public int size() {
        return Long.BYTES;
    }

    @Override
    public Mono<?> one(final long index) {
        return remote.fetchAndAdd(layout.counter(), 1);
    }

    @Override
    public RemoteOperation pipelined(final long index, final int slot) {
        return RemoteOperation.fetchAndAdd(layout.counter(), 1);
    }

    @Override
    public void completed(final long index, final int slot, final long result) {
        if (result != next) {
            throw new IllegalStateException("fetch-and-add " + index + " returned " + result + " as the counter's "
                + "value before, expected " + next);
        }
        next++;
        checked++;
    }

    @Override
    public void finish() {
        remote.read(layout.counter(), readBack, 0, Long.BYTES).block(timeout);
        final long actual = readBack.buffer().getLong(0);
        if (actual != next) {
            throw new IllegalStateException("after " + (next - RegionLayout.COUNTER_START) + " fetch-and-adds the "
                + "counter reads back as " + actual + ", expected " + next);
        }
    }

    @Override
    public long checked() {
        return checked;
    }
}
