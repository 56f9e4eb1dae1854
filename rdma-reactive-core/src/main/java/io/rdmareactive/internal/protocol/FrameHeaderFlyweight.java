package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The 8-byte header that starts every frame in a stream ring. Little-endian; byte offsets on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                         Frame Length                          |  0
 *  +-------------------------------+-+-+-----------+---------------+
 *  |             Type              |F|L|   Flags   |   Reserved    |  4
 *  +-------------------------------+-+-+-----------+---------------+
 *  |                        Payload or body                       ...  8
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |          padding to the next multiple of 8 (not counted)      |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li><b>Frame Length</b> (int): header plus payload bytes, not aligned; at least {@link #HEADER_LENGTH}. Frames
 *   start at multiples of {@link #ALIGNMENT}: the next frame starts at {@code alignedLength(frameLength)} bytes
 *   after this one.</li>
 *   <li><b>Type</b> (short): {@link #PAD} .. {@link #REGION_CLOSED}. A PAD frame fills the ring from its start to exactly the
 *   ring's end; the receiver skips it and goes on at ring offset 0.</li>
 *   <li><b>Flags</b> (byte): on DATA only, {@link #FIRST} (F) and {@link #LAST} (L). A whole message carries both;
 *   a message fragmented over several frames carries FIRST on its first, LAST on its last, neither in between.
 *   Every other bit, and every flag on other types, is illegal.</li>
 *   <li><b>Reserved</b> (byte): 0.</li>
 * </ul>
 *
 * <p>The header overlays the record header of Agrona's ring buffers (int length, int type): a frame's type, flags
 * and reserved byte read together as a little-endian int are Agrona's message type, positive for every frame type
 * but PAD. Agrona's own padding record (type -1) is not a PAD frame.
 *
 * <p>A flyweight ({@link Flyweight}): {@link #wrap(DirectBuffer, int)} points it at a frame. The header's reads are
 * those of every frame flyweight ({@link FrameFlyweight}); this one adds the setters of single header fields, for DATA
 * and PAD frames, and the static write, alignment and check of a header. It does not order its writes: publishing a
 * frame to another thread or process is the ring's job (Agrona's commit).
 * {@link #check(DirectBuffer, int, int, int)} is the static check of a frame a peer wrote, and reads nothing it has
 * not first proved to be inside the range it was given.
 */
public final class FrameHeaderFlyweight extends FrameFlyweight<FrameHeaderFlyweight> {

    /** Offset of the frame length (int). */
    public static final int FRAME_LENGTH_OFFSET = 0;
    /** Offset of the type (short). */
    public static final int TYPE_OFFSET = 4;
    /** Offset of the flags (byte). */
    public static final int FLAGS_OFFSET = 6;
    /** Offset of the reserved byte, which must be 0. */
    public static final int RESERVED_OFFSET = 7;
    /** Length of the header; the least frame length. */
    public static final int HEADER_LENGTH = 8;
    /** Every frame starts at a multiple of this many bytes. */
    public static final int ALIGNMENT = 8;

    /** Fills the ring from the frame's start to exactly its end; skipped. */
    public static final short PAD = 0;
    /** A message, or a fragment of one (see {@link #FIRST}, {@link #LAST}). */
    public static final short DATA = 1;
    /** More demand for a stream ({@link RequestNFlyweight}). */
    public static final short REQUEST_N = 2;
    /** The receiver of a stream wants no more ({@link StreamControlFlyweight}). */
    public static final short CANCEL = 3;
    /** The sender of a stream has no more ({@link StreamControlFlyweight}). */
    public static final short COMPLETE = 4;
    /** A stream failed ({@link ErrorFrameFlyweight}). */
    public static final short ERROR = 5;
    /** A stream opens ({@link OpenFrameFlyweight}). */
    public static final short OPEN = 6;
    /** Liveness ({@link KeepaliveFlyweight}). */
    public static final short KEEPALIVE = 7;
    /** Close ({@link StreamControlFlyweight}). */
    public static final short CLOSE = 8;
    /** A region of the sender's was closed: its descriptor is stale ({@link RegionClosedFlyweight}). */
    public static final short REGION_CLOSED = 9;
    /** The highest frame type. */
    public static final short LAST_TYPE = REGION_CLOSED;

    /** DATA flag: the frame holds the first bytes of a message. */
    public static final int FIRST = 0x80;
    /** DATA flag: the frame holds the last bytes of a message. */
    public static final int LAST = 0x40;
    /** DATA flags of a message in one frame. */
    public static final int WHOLE = FIRST | LAST;

    private static final int ALIGNMENT_MASK = ALIGNMENT - 1;

    /**
     * @param frameLength header plus payload bytes
     * @return this
     */
    public FrameHeaderFlyweight frameLength(final int frameLength) {
        return putInt(FRAME_LENGTH_OFFSET, frameLength);
    }

    /**
     * @param type the frame type
     * @return this
     */
    public FrameHeaderFlyweight type(final short type) {
        return putShort(TYPE_OFFSET, type);
    }

    /**
     * @param flags the flags, 0..255
     * @return this
     */
    public FrameHeaderFlyweight flags(final int flags) {
        return putByte(FLAGS_OFFSET, flags);
    }

    /** Writes a header with the reserved byte 0; what every flyweight of this package uses. */
    static void write(final MutableDirectBuffer buffer, final int offset, final int frameLength, final short type,
                      final int flags) {
        buffer.putInt(offset + FRAME_LENGTH_OFFSET, frameLength, BYTE_ORDER);
        buffer.putShort(offset + TYPE_OFFSET, type, BYTE_ORDER);
        buffer.putByte(offset + FLAGS_OFFSET, (byte) flags);
        buffer.putByte(offset + RESERVED_OFFSET, (byte) 0);
    }

    /**
     * @param frameLength a frame length, 0 .. {@link Integer#MAX_VALUE} - 7
     * @return the frame length rounded up to {@link #ALIGNMENT}: how far the next frame starts from this one
     */
    public static int alignedLength(final int frameLength) {
        return (frameLength + ALIGNMENT_MASK) & ~ALIGNMENT_MASK;
    }

    /**
     * Checks the frame a peer wrote at {@code index}, before anything else of it is read. Reads at most the 8 header
     * bytes, and only once it has proved them inside {@code [index, index + available)}, inside the ring and inside
     * the buffer; never throws, never allocates, whatever the bytes and arguments.
     *
     * <p>A frame is OK when: {@code index} is a multiple of 8 inside the ring; the frame length is at least 8; the type
     * is known; flags are only FIRST and LAST and only on DATA; the reserved byte is 0; a PAD frame ends exactly at
     * {@code ringCapacity}; any other frame ends at or before it; and the frame, aligned, lies inside the
     * {@code available} bytes (and the buffer). The body of a control frame is checked separately, by the check of
     * its flyweight, once this one passed.
     *
     * @param ring         the ring's buffer; ring offset {@code i} is buffer index {@code i}
     * @param index        the ring offset of the frame
     * @param available    the bytes from {@code index} on that the peer has published (they may run past the ring's
     *                     end in position terms: only those up to the ring's end count for this frame)
     * @param ringCapacity the ring's capacity, a multiple of 8 (anything else is {@link FrameCheck#OUT_OF_RANGE})
     * @return a {@link FrameCheck} code: {@link FrameCheck#OK} or what is wrong
     */
    public static int check(final DirectBuffer ring, final int index, final int available, final int ringCapacity) {
        if ((index & ALIGNMENT_MASK) != 0) {
            return FrameCheck.MISALIGNED;
        }
        if (index < 0 || index >= ringCapacity || available < 0 || (ringCapacity & ALIGNMENT_MASK) != 0) {
            return FrameCheck.OUT_OF_RANGE;
        }
        final long availableEnd = Math.min((long) index + available, ringCapacity);
        final long readableEnd = Math.min(availableEnd, ring.capacity());
        if (readableEnd - index < HEADER_LENGTH) {
            return FrameCheck.TOO_SHORT;
        }

        final int frameLength = ring.getInt(index + FRAME_LENGTH_OFFSET, BYTE_ORDER);
        if (frameLength < HEADER_LENGTH) {
            return FrameCheck.TOO_SHORT;
        }
        final int type = ring.getShort(index + TYPE_OFFSET, BYTE_ORDER);
        if (type < PAD || type > LAST_TYPE) {
            return FrameCheck.BAD_TYPE;
        }
        final int flags = ring.getByte(index + FLAGS_OFFSET) & 0xFF;
        final int reserved = ring.getByte(index + RESERVED_OFFSET);
        if (reserved != 0 || (type == DATA ? (flags & ~WHOLE) != 0 : flags != 0)) {
            return FrameCheck.BAD_FLAGS;
        }

        final long toRingEnd = (long) ringCapacity - index;
        if (type == PAD) {
            if (frameLength != toRingEnd) {
                return FrameCheck.PAD_NOT_AT_END;
            }
        } else if (frameLength > toRingEnd) {
            return FrameCheck.TOO_LONG;
        }
        final long alignedEnd = index + (((long) frameLength + ALIGNMENT_MASK) & ~ALIGNMENT_MASK);
        if (alignedEnd > (long) index + available || (long) index + frameLength > readableEnd) {
            return FrameCheck.TOO_LONG;
        }
        return FrameCheck.OK;
    }

    /**
     * @param code a {@link FrameCheck} code
     * @return what it means, for an error message (see {@link FrameCheck#describe(int)})
     */
    public static String describe(final int code) {
        return FrameCheck.describe(code);
    }
}
