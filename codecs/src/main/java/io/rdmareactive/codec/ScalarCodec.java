package io.rdmareactive.codec;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A boxed primitive as its fixed-width little-endian bytes, with no length prefix: the frame carries the length,
 * and decode accepts exactly the width, nothing shorter or longer.
 *
 * <p>Little-endian because it is the native order of the machines RDMA adapters sit in (x86-64, arm64) and SBE's
 * default, so encode and decode are plain stores and loads. Floating-point values are written as their raw bits,
 * so every NaN payload and the sign of zero round-trip. A {@code boolean} is one byte, 0 or 1; any other byte is
 * rejected, so that two different encodings never decode to the same value.
 *
 * <p>Encode allocates nothing. Decode returns the boxed value: {@code Integer.valueOf} and its siblings, which
 * reuse cached boxes for small values (and {@code Boolean}'s two) and allocate one 16-byte box otherwise: the one
 * allocation the type requires. Stateless and thread safe.
 *
 * @param <T> the box type
 */
abstract sealed class ScalarCodec<T> implements Codec<T> {

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final String name;
    private final int width;

    private ScalarCodec(final String name, final int width) {
        this.name = name;
        this.width = width;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int encodedLength(final T value) {
        java.util.Objects.requireNonNull(value, "value");
        return width;
    }

    @Override
    public final int encode(final T value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        java.util.Objects.requireNonNull(value, "value");
        CodecRanges.checkEncodeRange(name, buffer, offset, maxLength);
        if (width > maxLength) {
            throw CodecRanges.doesNotFit(name, width, offset, maxLength);
        }
        put(buffer, offset, value);
        return width;
    }

    @Override
    public final T decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(name, buffer, offset, length);
        if (length != width) {
            throw new CodecException(name, "expected exactly " + width + " bytes, got length " + length + " of "
                + CodecRanges.range(offset, length));
        }
        return get(buffer, offset);
    }

    @Override
    public final boolean decodesToView() {
        return false;
    }

    @Override
    public final String toString() {
        return name;
    }

    abstract void put(MutableDirectBuffer buffer, int index, T value);

    abstract T get(DirectBuffer buffer, int index);

    static final class OfBoolean extends ScalarCodec<Boolean> {
        OfBoolean() {
            super("boolean", 1);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Boolean value) {
            buffer.putByte(index, value ? (byte) 1 : (byte) 0);
        }

        @Override
        Boolean get(final DirectBuffer buffer, final int index) {
            final byte b = buffer.getByte(index);
            if (b == 0) {
                return Boolean.FALSE;
            }
            if (b == 1) {
                return Boolean.TRUE;
            }
            throw new CodecException(name(), "a boolean is the byte 0 or 1, not " + (b & 0xFF) + " at buffer index "
                + index);
        }
    }

    static final class OfByte extends ScalarCodec<Byte> {
        OfByte() {
            super("byte", Byte.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Byte value) {
            buffer.putByte(index, value);
        }

        @Override
        Byte get(final DirectBuffer buffer, final int index) {
            return buffer.getByte(index);
        }
    }

    static final class OfShort extends ScalarCodec<Short> {
        OfShort() {
            super("short", Short.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Short value) {
            buffer.putShort(index, value, ORDER);
        }

        @Override
        Short get(final DirectBuffer buffer, final int index) {
            return buffer.getShort(index, ORDER);
        }
    }

    static final class OfChar extends ScalarCodec<Character> {
        OfChar() {
            super("char", Character.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Character value) {
            buffer.putChar(index, value, ORDER);
        }

        @Override
        Character get(final DirectBuffer buffer, final int index) {
            return buffer.getChar(index, ORDER);
        }
    }

    static final class OfInt extends ScalarCodec<Integer> {
        OfInt() {
            super("int", Integer.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Integer value) {
            buffer.putInt(index, value, ORDER);
        }

        @Override
        Integer get(final DirectBuffer buffer, final int index) {
            return buffer.getInt(index, ORDER);
        }
    }

    static final class OfLong extends ScalarCodec<Long> {
        OfLong() {
            super("long", Long.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Long value) {
            buffer.putLong(index, value, ORDER);
        }

        @Override
        Long get(final DirectBuffer buffer, final int index) {
            return buffer.getLong(index, ORDER);
        }
    }

    static final class OfFloat extends ScalarCodec<Float> {
        OfFloat() {
            super("float", Float.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Float value) {
            buffer.putInt(index, Float.floatToRawIntBits(value), ORDER);
        }

        @Override
        Float get(final DirectBuffer buffer, final int index) {
            return Float.intBitsToFloat(buffer.getInt(index, ORDER));
        }
    }

    static final class OfDouble extends ScalarCodec<Double> {
        OfDouble() {
            super("double", Double.BYTES);
        }

        @Override
        void put(final MutableDirectBuffer buffer, final int index, final Double value) {
            buffer.putLong(index, Double.doubleToRawLongBits(value), ORDER);
        }

        @Override
        Double get(final DirectBuffer buffer, final int index) {
            return Double.longBitsToDouble(buffer.getLong(index, ORDER));
        }
    }
}
