package io.rdmareactive.perf.compare;

import io.rdmareactive.LocalRegion;
import io.rdmareactive.RemoteOperation;
import io.rdmareactive.RemoteRegion;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * One-sided reads of {@code size} bytes from the server region's read area into slots of a local region. Each read is
 * checked as it completes: every word when it has up to {@value #SAMPLE} of them, else {@value #SAMPLE} words spread
 * over it, the first and the last among them, against the word the server put at that position; after the phase, one
 * more read is checked word by word.
 */
final class ReadOperations implements OneSidedOperations {

    static final int SAMPLE = 64;

    private final RemoteRegion remote;
    private final LocalRegion target;
    private final RegionLayout layout;
    private final int size;
    private final Duration timeout;
    private long checked;

    /** @param target at least {@code size} bytes per slot the phase uses */
    ReadOperations(final RemoteRegion remote, final LocalRegion target, final RegionLayout layout, final int size,
                   final Duration timeout) {
        this.remote = remote;
        this.target = target;
        this.layout = layout;
        this.size = size;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "read";
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Mono<?> one(final long index) {
        return remote.read(source(index), target, 0, size);
    }

    @Override
    public RemoteOperation pipelined(final long index, final int slot) {
        return RemoteOperation.read(source(index), target, (long) slot * size, size);
    }

    @Override
    public void completed(final long index, final int slot, final long result) {
        if (result != size) {
            throw new IllegalStateException("read " + index + " of " + size + " bytes completed with " + result);
        }
        final int words = size / Long.BYTES;
        final int samples = Math.min(words, SAMPLE);
        for (int sample = 0; sample < samples; sample++) {
            final int word = samples == words ? sample : (int) ((long) sample * (words - 1) / (samples - 1));
            check(index, slot, word);
        }
        checked++;
    }

    @Override
    public void finish() {
        final long index = checked;
        remote.read(source(index), target, 0, size).block(timeout);
        for (int word = 0; word < size / Long.BYTES; word++) {
            check(index, 0, word);
        }
        checked++;
    }

    @Override
    public long checked() {
        return checked;
    }

    private long source(final long index) {
        return layout.readArea() + layout.offset(index, size);
    }

    private void check(final long index, final int slot, final int word) {
        final long position = source(index) + (long) word * Long.BYTES;
        final long expected = RegionLayout.readWord(position);
        final long actual = target.buffer().getLong(slot * size + word * Long.BYTES);
        if (actual != expected) {
            throw new IllegalStateException("read " + index + " of " + size + " bytes: the word at region offset "
                + position + " read as 0x" + Long.toHexString(actual) + ", the server put 0x"
                + Long.toHexString(expected) + " there");
        }
    }
}
