package io.rdmareactive.codec;

import java.nio.ByteOrder;
import java.util.Objects;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A primitive array as its elements' little-endian bytes, one after the other, with no length prefix: the frame
 * carries the length, and the element count is the length divided by the element width. Decode rejects a length
 * that is not a multiple of the width. Byte order, raw floating-point bits and strict booleans as in
 * {@link ScalarCodec}; {@code byte[]} has its own codec, {@link ByteArrayCodec}.
 *
 * <p>Encode allocates nothing; decode returns a new array the caller owns (the empty array is shared). Stateless
 * and thread safe.
 *
 * @param <A> the array type
 */
abstract sealed class PrimitiveArrayCodec<A> implements Codec<A> {

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final String name;
    private final int width;

    private PrimitiveArrayCodec(final String name, final int width) {
        this.name = name;
        this.width = width;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int encodedLength(final A value) {
        final long length = (long) elements(Objects.requireNonNull(value, "value")) * width;
        if (length > Integer.MAX_VALUE) {
            throw new CodecException(name, "encoding needs " + length + " bytes, more than a buffer can hold");
        }
        return (int) length;
    }

    @Override
    public final int encode(final A value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        final int count = elements(Objects.requireNonNull(value, "value"));
        CodecRanges.checkEncodeRange(name, buffer, offset, maxLength);
        final long length = (long) count * width;
        if (length > maxLength) {
            throw CodecRanges.doesNotFit(name, length, offset, maxLength);
        }
        put(value, count, buffer, offset);
        return (int) length;
    }

    @Override
    public final A decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(name, buffer, offset, length);
        if (length % width != 0) {
            throw new CodecException(name, "length " + length + " of " + CodecRanges.range(offset, length)
                + " is not a multiple of the element width " + width);
        }
        return get(buffer, offset, length / width);
    }

    @Override
    public final boolean decodesToView() {
        return false;
    }

    @Override
    public final String toString() {
        return name;
    }

    abstract int elements(A value);

    abstract void put(A value, int count, MutableDirectBuffer buffer, int index);

    abstract A get(DirectBuffer buffer, int index, int count);

    static final class OfBoolean extends PrimitiveArrayCodec<boolean[]> {
        private static final boolean[] EMPTY = {};

        OfBoolean() {
            super("boolean-array", 1);
        }

        @Override
        int elements(final boolean[] value) {
            return value.length;
        }

        @Override
        void put(final boolean[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putByte(index + i, value[i] ? (byte) 1 : (byte) 0);
            }
        }

        @Override
        boolean[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final boolean[] values = new boolean[count];
            for (int i = 0; i < count; i++) {
                final byte b = buffer.getByte(index + i);
                if ((b & ~1) != 0) {
                    throw new CodecException(name(), "a boolean is the byte 0 or 1, not " + (b & 0xFF)
                        + " at element " + i + " (buffer index " + (index + i) + ")");
                }
                values[i] = b != 0;
            }
            return values;
        }
    }

    static final class OfShort extends PrimitiveArrayCodec<short[]> {
        private static final short[] EMPTY = {};

        OfShort() {
            super("short-array", Short.BYTES);
        }

        @Override
        int elements(final short[] value) {
            return value.length;
        }

        @Override
        void put(final short[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putShort(index + i * Short.BYTES, value[i], ORDER);
            }
        }

        @Override
        short[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final short[] values = new short[count];
            for (int i = 0; i < count; i++) {
                values[i] = buffer.getShort(index + i * Short.BYTES, ORDER);
            }
            return values;
        }
    }

    static final class OfChar extends PrimitiveArrayCodec<char[]> {
        private static final char[] EMPTY = {};

        OfChar() {
            super("char-array", Character.BYTES);
        }

        @Override
        int elements(final char[] value) {
            return value.length;
        }

        @Override
        void put(final char[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putChar(index + i * Character.BYTES, value[i], ORDER);
            }
        }

        @Override
        char[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final char[] values = new char[count];
            for (int i = 0; i < count; i++) {
                values[i] = buffer.getChar(index + i * Character.BYTES, ORDER);
            }
            return values;
        }
    }

    static final class OfInt extends PrimitiveArrayCodec<int[]> {
        private static final int[] EMPTY = {};

        OfInt() {
            super("int-array", Integer.BYTES);
        }

        @Override
        int elements(final int[] value) {
            return value.length;
        }

        @Override
        void put(final int[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putInt(index + i * Integer.BYTES, value[i], ORDER);
            }
        }

        @Override
        int[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final int[] values = new int[count];
            for (int i = 0; i < count; i++) {
                values[i] = buffer.getInt(index + i * Integer.BYTES, ORDER);
            }
            return values;
        }
    }

    static final class OfLong extends PrimitiveArrayCodec<long[]> {
        private static final long[] EMPTY = {};

        OfLong() {
            super("long-array", Long.BYTES);
        }

        @Override
        int elements(final long[] value) {
            return value.length;
        }

        @Override
        void put(final long[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putLong(index + i * Long.BYTES, value[i], ORDER);
            }
        }

        @Override
        long[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final long[] values = new long[count];
            for (int i = 0; i < count; i++) {
                values[i] = buffer.getLong(index + i * Long.BYTES, ORDER);
            }
            return values;
        }
    }

    static final class OfFloat extends PrimitiveArrayCodec<float[]> {
        private static final float[] EMPTY = {};

        OfFloat() {
            super("float-array", Float.BYTES);
        }

        @Override
        int elements(final float[] value) {
            return value.length;
        }

        @Override
        void put(final float[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putInt(index + i * Float.BYTES, Float.floatToRawIntBits(value[i]), ORDER);
            }
        }

        @Override
        float[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final float[] values = new float[count];
            for (int i = 0; i < count; i++) {
                values[i] = Float.intBitsToFloat(buffer.getInt(index + i * Float.BYTES, ORDER));
            }
            return values;
        }
    }

    static final class OfDouble extends PrimitiveArrayCodec<double[]> {
        private static final double[] EMPTY = {};

        OfDouble() {
            super("double-array", Double.BYTES);
        }

        @Override
        int elements(final double[] value) {
            return value.length;
        }

        @Override
        void put(final double[] value, final int count, final MutableDirectBuffer buffer, final int index) {
            for (int i = 0; i < count; i++) {
                buffer.putLong(index + i * Double.BYTES, Double.doubleToRawLongBits(value[i]), ORDER);
            }
        }

        @Override
        double[] get(final DirectBuffer buffer, final int index, final int count) {
            if (count == 0) {
                return EMPTY;
            }
            final double[] values = new double[count];
            for (int i = 0; i < count; i++) {
                values[i] = Double.longBitsToDouble(buffer.getLong(index + i * Double.BYTES, ORDER));
            }
            return values;
        }
    }
}
