package io.rdmareactive.internal.protocol;

/**
 * The 32-bit immediate of a stream write: the stream in the high 10 bits, the advance in 8-byte units in the low
 * 22 bits.
 */
final class Immediate {

    private static final int ADVANCE_BITS = 22;
    private static final int ADVANCE_MASK = (1 << ADVANCE_BITS) - 1;

    private Immediate() {
    }

    static int encode(final int stream, final int advance) {
        return (stream << ADVANCE_BITS) | ((advance >>> 3) & ADVANCE_MASK);
    }

    static int stream(final int immediate) {
        return immediate >>> ADVANCE_BITS;
    }

    static int advance(final int immediate) {
        return (immediate & ADVANCE_MASK) << 3;
    }
}
