package io.rdmareactive.codec;

import java.util.Objects;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Agrona {@link DirectBuffer} as its bytes {@code [0, capacity)}, decoded without a copy.
 *
 * <p>Encode copies the value's whole capacity and allocates nothing; to send part of a buffer, wrap that part in
 * a view first ({@code new UnsafeBuffer(buffer, offset, length)}, once, reused).
 *
 * <p>Decode returns a view over exactly the range: capacity {@code length}, index 0 at {@code offset}, no bytes
 * copied. The view is valid only while the range is: for a received message, until the subscriber's
 * {@code onNext} returns; after that the bytes belong to the ring again and will be overwritten. The view is an
 * {@link UnsafeBuffer}, but it is a read-only contract: never write through it (casting it to a mutable buffer and
 * writing would write into the receive ring).
 *
 * <p>Two flavours:
 * <ul>
 *   <li><b>shared</b> ({@link Codecs#DIRECT_BUFFER}): each decode allocates one small view object; stateless and
 *       thread safe.</li>
 *   <li><b>reusable view</b> ({@link Codecs#reusableDirectBufferView()}): decode rewraps and returns the same
 *       view object every time, so it allocates nothing, and the view returned by one decode is invalidated by the
 *       next decode on the same instance. Not thread safe: use one instance per stream and subscriber, confined to
 *       the thread that delivers that subscriber's {@code onNext}.</li>
 * </ul>
 */
final class DirectBufferCodec implements Codec<DirectBuffer> {

    static final String SHARED_NAME = "direct-buffer";
    static final String REUSABLE_NAME = "direct-buffer-reusable-view";

    private final String name;
    /** The view handed out again and again, or {@code null} for the shared, allocate-per-decode flavour. */
    private final UnsafeBuffer reusableView;

    private DirectBufferCodec(final String name, final UnsafeBuffer reusableView) {
        this.name = name;
        this.reusableView = reusableView;
    }

    static DirectBufferCodec shared() {
        return new DirectBufferCodec(SHARED_NAME, null);
    }

    static DirectBufferCodec reusableView() {
        return new DirectBufferCodec(REUSABLE_NAME, new UnsafeBuffer(new byte[0]));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int encodedLength(final DirectBuffer value) {
        return value.capacity();
    }

    @Override
    public int encode(final DirectBuffer value, final MutableDirectBuffer buffer, final int offset,
                      final int maxLength) {
        final int length = value.capacity();
        CodecRanges.checkEncodeRange(name, buffer, offset, maxLength);
        if (length > maxLength) {
            throw CodecRanges.doesNotFit(name, length, offset, maxLength);
        }
        buffer.putBytes(offset, value, 0, length);
        return length;
    }

    /** @return the value itself: its bytes {@code [0, capacity)} are its encoding */
    @Override
    public DirectBuffer encodedBytes(final DirectBuffer value) {
        return Objects.requireNonNull(value, "value");
    }

    @Override
    public DirectBuffer decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(name, buffer, offset, length);
        final UnsafeBuffer view = reusableView;
        if (view == null) {
            return new UnsafeBuffer(buffer, offset, length);
        }
        view.wrap(buffer, offset, length);
        return view;
    }

    @Override
    public boolean decodesToView() {
        return true;
    }

    @Override
    public String toString() {
        return name;
    }
}
