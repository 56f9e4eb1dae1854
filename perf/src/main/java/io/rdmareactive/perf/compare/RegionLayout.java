package io.rdmareactive.perf.compare;

import org.agrona.MutableDirectBuffer;

/**
 * The rma workload's server region and the words it holds: a read area, a write area of the same length, and one
 * 64-bit counter for fetch-and-add. Every 8-byte word of both areas starts as {@link #readWord} of its position in
 * the region; a write stores {@link #writtenWord} of each position it covers, which differs from the read word at
 * every position, so a write that did not land, or a read that returned another range or stale bytes, shows. The
 * n-th operation of a size reaches its area at {@link #offset}, a different 8-byte aligned offset from the previous
 * operation's.
 *
 * @param span the length of each area: the largest operation plus 64 KiB of room for the offsets to move in
 */
record RegionLayout(long span) {

    /** The counter's value when the server registers the region. */
    static final long COUNTER_START = 1L << 40;
    private static final long ROOM = 64 << 10;
    /** A prime stride between consecutive operations' offsets, in words. */
    private static final long STRIDE_WORDS = 7919;

    /** @return the layout whose areas hold operations up to {@code largest} bytes */
    static RegionLayout forLargest(final int largest) {
        return new RegionLayout(largest + ROOM);
    }

    long readArea() {
        return 0;
    }

    long writeArea() {
        return span;
    }

    /** @return the counter's offset, 8-byte aligned */
    long counter() {
        return 2 * span;
    }

    /** @return the region's length */
    long length() {
        return 2 * span + 64;
    }

    /** @return where in an area the {@code index}-th operation of {@code size} bytes starts, 8-byte aligned */
    long offset(final long index, final int size) {
        final long positions = (span - size) / Long.BYTES + 1;
        return Math.floorMod(index * STRIDE_WORDS, positions) * Long.BYTES;
    }

    /** @return the word the server puts at {@code position} of the region */
    static long readWord(final long position) {
        final long mixed = (position + 0x632BE59BD9B4E019L) * 0x9E3779B97F4A7C15L;
        return mixed ^ (mixed >>> 29);
    }

    /** @return the word a write puts at {@code position} of the region */
    static long writtenWord(final long position) {
        return ~readWord(position);
    }

    /** Fills both areas of a region of {@link #length()} bytes with their read words, and sets the counter. */
    void fill(final MutableDirectBuffer region) {
        for (long position = 0; position < counter(); position += Long.BYTES) {
            region.putLong((int) position, readWord(position));
        }
        region.putLong((int) counter(), COUNTER_START);
    }
}
