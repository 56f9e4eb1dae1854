package io.rdmareactive.internal.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A buffer that lets a check read only {@code [from, to)} of an array, for tests of code that reads untrusted bytes:
 * it is an {@link UnsafeBuffer} of capacity {@code to} over the array (buffer index = array index), so Agrona's bounds
 * checks (on unless {@code agrona.disable.bounds.checks} is set) throw on any read at or past {@code to}; and its
 * read methods throw on any read that starts below {@code from}.
 */
final class GuardedBuffer extends UnsafeBuffer {

    private final int from;

    GuardedBuffer(final byte[] array, final int from, final int to) {
        super(array, 0, to);
        this.from = from;
    }

    /** @return a guarded buffer over {@code [index, index + length)} clipped to the array */
    static GuardedBuffer exactly(final byte[] array, final long index, final long length) {
        final int from = Math.clamp(index, 0, array.length);
        final int to = Math.clamp(index + Math.max(0, length), from, array.length);
        return new GuardedBuffer(array, from, to);
    }

    int from() {
        return from;
    }

    private void below(final int index) {
        if (index < from) {
            throw new IndexOutOfBoundsException("read at " + index + ", below the allowed range from " + from);
        }
    }

    @Override
    public byte getByte(final int index) {
        below(index);
        return super.getByte(index);
    }

    @Override
    public short getShort(final int index) {
        below(index);
        return super.getShort(index);
    }

    @Override
    public short getShort(final int index, final ByteOrder byteOrder) {
        below(index);
        return super.getShort(index, byteOrder);
    }

    @Override
    public char getChar(final int index) {
        below(index);
        return super.getChar(index);
    }

    @Override
    public int getInt(final int index) {
        below(index);
        return super.getInt(index);
    }

    @Override
    public int getInt(final int index, final ByteOrder byteOrder) {
        below(index);
        return super.getInt(index, byteOrder);
    }

    @Override
    public long getLong(final int index) {
        below(index);
        return super.getLong(index);
    }

    @Override
    public long getLong(final int index, final ByteOrder byteOrder) {
        below(index);
        return super.getLong(index, byteOrder);
    }

    @Override
    public int getIntVolatile(final int index) {
        below(index);
        return super.getIntVolatile(index);
    }

    @Override
    public long getLongVolatile(final int index) {
        below(index);
        return super.getLongVolatile(index);
    }

    @Override
    public void getBytes(final int index, final byte[] dst, final int offset, final int length) {
        below(index);
        super.getBytes(index, dst, offset, length);
    }

    @Override
    public void getBytes(final int index, final MutableDirectBuffer dstBuffer, final int dstIndex, final int length) {
        below(index);
        super.getBytes(index, dstBuffer, dstIndex, length);
    }

    @Override
    public void getBytes(final int index, final ByteBuffer dstBuffer, final int dstOffset, final int length) {
        below(index);
        super.getBytes(index, dstBuffer, dstOffset, length);
    }

    @Override
    public String getStringWithoutLengthUtf8(final int index, final int length) {
        below(index);
        return super.getStringWithoutLengthUtf8(index, length);
    }
}
