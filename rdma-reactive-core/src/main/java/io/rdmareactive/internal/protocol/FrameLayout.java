package io.rdmareactive.internal.protocol;

/**
 * The frame header every stream ring uses, and its alignment.
 *
 * <pre>
 *   0                   4         6         7         8
 *  +-------------------+---------+---------+---------+----------------- ... -+
 *  | frame length      | type    | flags   | 0       | payload                 |
 *  | (header+payload)  | (short) | (byte)  | (byte)  |                         |
 *  +-------------------+---------+---------+---------+----------------- ... -+
 *  frames start at 8-byte aligned positions; the next one at align8(position + frame length);
 *  a PAD frame fills the ring to its end, and the next frame starts at index 0.
 * </pre>
 */
final class FrameLayout {

    static final int HEADER_LENGTH = 8;
    static final int ALIGNMENT = 8;
    static final int TYPE_OFFSET = 4;
    static final int FLAGS_OFFSET = 6;

    static final short TYPE_PAD = 0;
    static final short TYPE_DATA = 1;

    private FrameLayout() {
    }

    static int align(final int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
