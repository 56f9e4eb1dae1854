package io.rdmareactive.internal.protocol;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The base of this package's flyweights: where a layout lies (a buffer and the offset of its first byte), and the
 * little-endian reads and writes of its fields, so that each flyweight declares only its own fields, as offsets from
 * that first byte.
 *
 * <p>{@link #wrap(DirectBuffer, int)} points a flyweight at a layout; it holds no state beyond the buffer and the
 * offset, allocates nothing and is reused. Writers must wrap a {@link MutableDirectBuffer}. A flyweight does not order
 * its writes: publishing them to another thread or process is the caller's job.
 *
 * @param <T> the flyweight itself, which {@link #wrap} and the setters return
 */
public abstract class Flyweight<T extends Flyweight<T>> {

    /** Byte order of every field of every layout of this package: frames, handshakes, call headers. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private DirectBuffer buffer;
    private int offset;

    Flyweight() {
    }

    /**
     * Points this flyweight at a layout.
     *
     * @param buffer the buffer (a {@link MutableDirectBuffer} to write)
     * @param offset the layout's first byte
     * @return this
     */
    public final T wrap(final DirectBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return self();
    }

    /** @return the wrapped buffer */
    public final DirectBuffer buffer() {
        return buffer;
    }

    /** @return the offset of the layout's first byte in the wrapped buffer */
    public final int offset() {
        return offset;
    }

    @SuppressWarnings("unchecked")
    final T self() {
        return (T) this;
    }

    /** @return the wrapped buffer, to write */
    final MutableDirectBuffer out() {
        return (MutableDirectBuffer) buffer;
    }

    final byte getByte(final int field) {
        return buffer.getByte(offset + field);
    }

    final short getShort(final int field) {
        return buffer.getShort(offset + field, BYTE_ORDER);
    }

    final int getUnsignedShort(final int field) {
        return buffer.getShort(offset + field, BYTE_ORDER) & 0xFFFF;
    }

    final int getInt(final int field) {
        return buffer.getInt(offset + field, BYTE_ORDER);
    }

    final long getLong(final int field) {
        return buffer.getLong(offset + field, BYTE_ORDER);
    }

    final T putByte(final int field, final int value) {
        out().putByte(offset + field, (byte) value);
        return self();
    }

    final T putShort(final int field, final int value) {
        out().putShort(offset + field, (short) value, BYTE_ORDER);
        return self();
    }

    final T putInt(final int field, final int value) {
        out().putInt(offset + field, value, BYTE_ORDER);
        return self();
    }

    final T putLong(final int field, final long value) {
        out().putLong(offset + field, value, BYTE_ORDER);
        return self();
    }
}
