package io.rdmareactive.internal.protocol;

/**
 * The base of the flyweights over a whole frame, header included (wrap one at the frame's first byte): the reads of
 * the 8-byte header that starts every frame ({@link FrameHeaderFlyweight} defines its layout and types) and the write
 * of the whole header, which each frame's {@code write} does first. The header's fields are set one by one only
 * through {@link FrameHeaderFlyweight} (DATA and PAD frames); a control frame writes its header whole.
 *
 * @param <T> the flyweight itself
 */
public abstract class FrameFlyweight<T extends FrameFlyweight<T>> extends Flyweight<T> {

    FrameFlyweight() {
    }

    /** @return the frame length: header plus payload, not aligned */
    public final int frameLength() {
        return getInt(FrameHeaderFlyweight.FRAME_LENGTH_OFFSET);
    }

    /** @return the frame type */
    public final short type() {
        return getShort(FrameHeaderFlyweight.TYPE_OFFSET);
    }

    /** @return the flags, as an unsigned value 0..255 */
    public final int flags() {
        return getByte(FrameHeaderFlyweight.FLAGS_OFFSET) & 0xFF;
    }

    /** @return the reserved byte (0 in a legal frame) */
    public final int reserved() {
        return getByte(FrameHeaderFlyweight.RESERVED_OFFSET);
    }

    /**
     * Writes the whole header, the reserved byte 0 included ({@link FrameHeaderFlyweight#write}).
     *
     * @param frameLength header plus payload bytes
     * @param type        the frame type
     * @param flags       the flags (DATA only; 0 otherwise)
     * @return this
     */
    public final T header(final int frameLength, final short type, final int flags) {
        FrameHeaderFlyweight.write(out(), offset(), frameLength, type, flags);
        return self();
    }
}
