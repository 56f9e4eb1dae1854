package io.rdmareactive.codec;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;

/**
 * The built-in codecs. The constants may be shared by any number of threads and streams (the only state any of them
 * keeps is the UTF-8 decoder's per-thread scratch array); the factory makes codecs that hold per-instance state and
 * must not be shared.
 *
 * <p>Primitives and primitive arrays are fixed-width and little-endian (the native order of x86-64 and arm64, and
 * SBE's default), with no length prefix: the frame carries the length. Encode allocates nothing; decode returns a
 * box or a new array. {@link CodecRegistry#defaults()} maps each of these types to its codec.
 */
public final class Codecs {

    /**
     * {@code byte[]} as its own bytes. Encode allocates nothing; decode returns a new array owned by the caller.
     */
    public static final Codec<byte[]> BYTE_ARRAY = new ByteArrayCodec();

    /**
     * {@link ByteBuffer} as its bytes {@code [position, limit)}. Encode does not move the value's position; decode
     * returns a fresh, writable heap buffer owned by the caller (position 0, limit = capacity = length).
     */
    public static final Codec<ByteBuffer> BYTE_BUFFER = new ByteBufferCodec();

    /**
     * Agrona {@link DirectBuffer} as its bytes {@code [0, capacity)}. Encode allocates nothing; decode copies
     * nothing and returns a new read-only-by-contract view over the range, valid only until the subscriber's
     * {@code onNext} returns. Thread safe. See {@link #reusableDirectBufferView()} for a decode that allocates
     * nothing.
     */
    public static final Codec<DirectBuffer> DIRECT_BUFFER = DirectBufferCodec.shared();

    /**
     * {@link String} as strict UTF-8: encode writes exactly what {@code String.getBytes(UTF_8)} would (an
     * unpaired surrogate becomes {@code '?'}) without allocating; decode rejects malformed UTF-8 with a
     * {@link CodecException}.
     */
    public static final Codec<String> UTF8_STRING = new Utf8StringCodec();

    /** {@code Boolean} as one byte, 0 or 1; decode rejects any other byte. */
    public static final Codec<Boolean> BOOLEAN = new ScalarCodec.OfBoolean();

    /** {@code Byte} as one byte. */
    public static final Codec<Byte> BYTE = new ScalarCodec.OfByte();

    /** {@code Short} as 2 little-endian bytes; decode accepts exactly 2. */
    public static final Codec<Short> SHORT = new ScalarCodec.OfShort();

    /** {@code Character} as 2 little-endian bytes (a UTF-16 code unit); decode accepts exactly 2. */
    public static final Codec<Character> CHAR = new ScalarCodec.OfChar();

    /** {@code Integer} as 4 little-endian bytes; decode accepts exactly 4. */
    public static final Codec<Integer> INT = new ScalarCodec.OfInt();

    /** {@code Long} as 8 little-endian bytes; decode accepts exactly 8. */
    public static final Codec<Long> LONG = new ScalarCodec.OfLong();

    /** {@code Float} as its 4 raw little-endian bits (every NaN payload round-trips); decode accepts exactly 4. */
    public static final Codec<Float> FLOAT = new ScalarCodec.OfFloat();

    /** {@code Double} as its 8 raw little-endian bits (every NaN payload round-trips); decode accepts exactly 8. */
    public static final Codec<Double> DOUBLE = new ScalarCodec.OfDouble();

    /** {@code boolean[]} as one byte per element, 0 or 1; decode rejects any other byte. */
    public static final Codec<boolean[]> BOOLEAN_ARRAY = new PrimitiveArrayCodec.OfBoolean();

    /** {@code short[]} as 2 little-endian bytes per element; decode rejects a length that is not even. */
    public static final Codec<short[]> SHORT_ARRAY = new PrimitiveArrayCodec.OfShort();

    /** {@code char[]} as 2 little-endian bytes per element; decode rejects a length that is not even. */
    public static final Codec<char[]> CHAR_ARRAY = new PrimitiveArrayCodec.OfChar();

    /** {@code int[]} as 4 little-endian bytes per element; decode rejects a length not a multiple of 4. */
    public static final Codec<int[]> INT_ARRAY = new PrimitiveArrayCodec.OfInt();

    /** {@code long[]} as 8 little-endian bytes per element; decode rejects a length not a multiple of 8. */
    public static final Codec<long[]> LONG_ARRAY = new PrimitiveArrayCodec.OfLong();

    /** {@code float[]} as 4 raw little-endian bytes per element; decode rejects a length not a multiple of 4. */
    public static final Codec<float[]> FLOAT_ARRAY = new PrimitiveArrayCodec.OfFloat();

    /** {@code double[]} as 8 raw little-endian bytes per element; decode rejects a length not a multiple of 8. */
    public static final Codec<double[]> DOUBLE_ARRAY = new PrimitiveArrayCodec.OfDouble();

    private Codecs() {
    }

    /**
     * A {@link DirectBuffer} codec like {@link #DIRECT_BUFFER} whose decode rewraps and returns one view object
     * owned by this codec instance, so it allocates nothing. The view returned by a decode is invalidated by the
     * next decode on the same instance (and, like every view, when the subscriber's {@code onNext} returns).
     * Not thread safe: make one per stream and subscriber, used only by the thread that delivers to it.
     *
     * @return a new codec with its own reusable view
     */
    public static Codec<DirectBuffer> reusableDirectBufferView() {
        return DirectBufferCodec.reusableView();
    }
}
