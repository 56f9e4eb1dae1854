package io.rdmareactive.perf.compare;

import io.rdmareactive.LocalRegion;
import io.rdmareactive.RemoteOperation;
import io.rdmareactive.RemoteRegion;
import java.time.Duration;
import java.util.BitSet;
import reactor.core.publisher.Mono;

/**
 * One-sided writes of {@code size} bytes from a local source region to the server region's write area. The source
 * holds, at each offset, the written word of the write area's position at that offset, so every write stores the
 * same word at a position whichever write covers it; the words written are marked. After the phase the whole write
 * area is read back and checked: a marked word must hold its written word, every other word the server's own.
 */
final class WriteOperations implements OneSidedOperations {

    private final RemoteRegion remote;
    private final LocalRegion source;
    private final LocalRegion readBack;
    private final RegionLayout layout;
    private final BitSet written;
    private final int size;
    private final Duration timeout;
    private long checked;

    /**
     * @param source   a region of the write area's length holding the written words ({@link #fillSource})
     * @param readBack a region of at least the write area's length, for the check after the phase
     * @param written  the words of the write area written so far, shared by every write phase of the region
     */
    WriteOperations(final RemoteRegion remote, final LocalRegion source, final LocalRegion readBack,
                    final RegionLayout layout, final BitSet written, final int size, final Duration timeout) {
        this.remote = remote;
        this.source = source;
        this.readBack = readBack;
        this.layout = layout;
        this.written = written;
        this.size = size;
        this.timeout = timeout;
    }

    /** Fills {@code source} with the written word of each position of the write area. */
    static void fillSource(final LocalRegion source, final RegionLayout layout) {
        for (long offset = 0; offset < layout.span(); offset += Long.BYTES) {
            source.buffer().putLong((int) offset, RegionLayout.writtenWord(layout.writeArea() + offset));
        }
    }

    @Override
    public String name() {
        return "write";
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Mono<?> one(final long index) {
        final long offset = layout.offset(index, size);
        return remote.write(layout.writeArea() + offset, source, offset, size);
    }

    @Override
    public RemoteOperation pipelined(final long index, final int slot) {
        final long offset = layout.offset(index, size);
        return RemoteOperation.write(layout.writeArea() + offset, source, offset, size);
    }

    @Override
    public void completed(final long index, final int slot, final long result) {
        if (result != size) {
            throw new IllegalStateException("write " + index + " of " + size + " bytes completed with " + result);
        }
        final int word = (int) (layout.offset(index, size) / Long.BYTES);
        written.set(word, word + size / Long.BYTES);
        checked++;
    }

    @Override
    public void finish() {
        final int span = (int) layout.span();
        remote.read(layout.writeArea(), readBack, 0, span).block(timeout);
        for (int word = 0; word < span / Long.BYTES; word++) {
            final long position = layout.writeArea() + (long) word * Long.BYTES;
            final boolean wasWritten = written.get(word);
            final long expected = wasWritten ? RegionLayout.writtenWord(position) : RegionLayout.readWord(position);
            final long actual = readBack.buffer().getLong(word * Long.BYTES);
            if (actual != expected) {
                throw new IllegalStateException("after the " + size + "-byte writes, the word at region offset "
                    + position + " reads back as 0x" + Long.toHexString(actual) + ", not the 0x"
                    + Long.toHexString(expected) + (wasWritten ? " a write put there" : " the server put there (no "
                    + "write covered it)"));
            }
        }
    }

    @Override
    public long checked() {
        return checked;
    }
}
