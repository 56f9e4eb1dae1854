package io.rdmareactive.codec;

import java.util.Objects;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The range checks every built-in codec makes before it touches a buffer, public so that codecs written elsewhere
 * (the JSON codec, yours) report a bad range in the same words. Arithmetic is done in {@code long} so that
 * {@code offset + length} cannot overflow into a range that looks valid.
 */
public final class CodecRanges {

    private CodecRanges() {
    }

    /**
     * Checks that {@code [offset, offset + maxLength)} is a well-formed range that {@code buffer} can hold: inside
     * its capacity, or, for an expandable buffer, within what an {@code int} index can address.
     *
     * @param codec the name of the codec that checks, for the message
     * @param buffer the buffer to encode into
     * @param offset where the range starts
     * @param maxLength the length of the range
     * @throws CodecException if the range is malformed or not inside the buffer
     * @throws NullPointerException if {@code buffer} is {@code null}
     */
    public static void checkEncodeRange(final String codec, final MutableDirectBuffer buffer, final int offset,
                                 final int maxLength) {
        Objects.requireNonNull(buffer, "buffer");
        final long end = (long) offset + maxLength;
        final long limit = buffer.isExpandable() ? Integer.MAX_VALUE : buffer.capacity();
        if (offset < 0 || maxLength < 0 || end > limit) {
            throw new CodecException(codec, "cannot encode into " + range(offset, maxLength)
                + ": not inside the buffer (capacity " + buffer.capacity()
                + (buffer.isExpandable() ? ", expandable" : "") + ")");
        }
    }

    /**
     * Checks that {@code [offset, offset + length)} is a well-formed range inside {@code buffer}'s capacity.
     *
     * @param codec the name of the codec that checks, for the message
     * @param buffer the buffer to decode from
     * @param offset where the range starts
     * @param length the length of the range
     * @throws CodecException if the range is malformed or not inside the buffer
     * @throws NullPointerException if {@code buffer} is {@code null}
     */
    public static void checkDecodeRange(final String codec, final DirectBuffer buffer, final int offset, final int length) {
        Objects.requireNonNull(buffer, "buffer");
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new CodecException(codec, "cannot decode from " + range(offset, length)
                + ": not inside the buffer (capacity " + buffer.capacity() + ")");
        }
    }

    /**
     * The exception for an encoding that needs more than the range holds.
     *
     * @param codec the name of the codec that refuses
     * @param required the bytes the encoding needs
     * @param offset where the range starts
     * @param maxLength the length of the range
     * @return the exception to throw, naming the codec, both lengths and the range
     */
    public static CodecException doesNotFit(final String codec, final long required, final int offset,
                                      final int maxLength) {
        return new CodecException(codec, "encoding needs " + required + " bytes, more than maxLength "
            + maxLength + " of " + range(offset, maxLength));
    }

    /**
     * A range as the messages show it.
     *
     * @param offset where the range starts
     * @param length its length
     * @return {@code "[offset O, length L)"}
     */
    public static String range(final int offset, final int length) {
        return "[offset " + offset + ", length " + length + ")";
    }
}
