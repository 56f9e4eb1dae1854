package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A credit or grant word caught in the middle of an RDMA write (some bytes new, the rest old) is never taken for a
 * value: it reads as {@link CheckedWord#TORN}, never as a credit that moved backwards or past what was sent.
 */
class CheckedWordTest {

    @Property
    void aWholeWordReadsBackItsValue(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) final long value) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CheckedWord.LENGTH]);
        CheckedWord.write(buffer, 0, value);
        assertThat(CheckedWord.read(buffer, 0)).isEqualTo(value);
    }

    @Property
    void aWordCaughtMidWriteReadsTornOrAsTheOldOrTheNewValue(
        @ForAll @LongRange(min = 0, max = 1L << 40) final long before,
        @ForAll @LongRange(min = 1, max = 1L << 20) final long step,
        @ForAll @IntRange(min = 0, max = CheckedWord.LENGTH) final int bytesWritten,
        @ForAll final boolean ascending) {
        final long after = before + step;
        final UnsafeBuffer old = new UnsafeBuffer(new byte[CheckedWord.LENGTH]);
        final UnsafeBuffer fresh = new UnsafeBuffer(new byte[CheckedWord.LENGTH]);
        CheckedWord.write(old, 0, before);
        CheckedWord.write(fresh, 0, after);
        // the reader's view: the first (or last) bytesWritten bytes are the new word's, the rest the old one's
        final UnsafeBuffer seen = new UnsafeBuffer(new byte[CheckedWord.LENGTH]);
        for (int i = 0; i < CheckedWord.LENGTH; i++) {
            final boolean written = ascending ? i < bytesWritten : i >= CheckedWord.LENGTH - bytesWritten;
            seen.putByte(i, (written ? fresh : old).getByte(i));
        }
        final long read = CheckedWord.read(seen, 0);
        assertThat(read).as("read after %d of 16 bytes written (%s)", bytesWritten, ascending ? "ascending" : "descending")
            .isIn(CheckedWord.TORN, before, after);
    }
}
