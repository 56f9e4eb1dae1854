package io.rdmareactive.internal.protocol;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * A 64-bit value the peer RDMA-writes into this side's memory and this side polls, with no completion to say when
 * the write is whole: a credit word or the receive grant. Nothing promises that an adapter writes 8 bytes at once
 * (Soft-RoCE copies them with {@code memcpy}, a byte at a time under emulation), so a read can see half an old
 * value and half a new one: a credit that seems to move backwards, or past what was sent. Each word is therefore
 * written with its bitwise complement after it, 16 bytes in one write:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                                                               |  0
 *  +                  Value (little-endian, >= 0)                  +
 *  |                                                               |  4
 *  +---------------------------------------------------------------+
 *  |                                                               |  8
 *  +                    ~Value (its complement)                    +
 *  |                                                               | 12
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * A reader that finds the two disagree has caught the write in flight and reads again on its next duty cycle; a
 * peer that writes a wrong complement on purpose only keeps its own credit from arriving. Reading allocates nothing.
 */
final class CheckedWord {

    /** The bytes a checked word takes, and a credit or grant write carries. */
    static final int LENGTH = 16;
    /** What {@link #read} returns for a word caught in the middle of a write. */
    static final long TORN = -1;

    private CheckedWord() {
    }

    /** Writes {@code value} and its complement at {@code offset}. */
    static void write(final MutableDirectBuffer buffer, final int offset, final long value) {
        buffer.putLong(offset, value);
        buffer.putLong(offset + 8, ~value);
    }

    /** @return the value at {@code offset}, or {@link #TORN} if it is being written (or was written inconsistently) */
    static long read(final AtomicBuffer buffer, final int offset) {
        final long value = buffer.getLongVolatile(offset);
        final long check = buffer.getLongVolatile(offset + 8);
        return check == ~value && value >= 0 ? value : TORN;
    }
}
