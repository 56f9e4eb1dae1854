package io.rdmareactive.codec;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;

/**
 * The built-in codecs. The constants are stateless and may be shared by any number of threads and streams; the
 * factory makes codecs that hold per-instance state and must not be shared.
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
