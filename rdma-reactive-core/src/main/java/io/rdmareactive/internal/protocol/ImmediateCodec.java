package io.rdmareactive.internal.protocol;

/**
 * The 32-bit immediate of an RDMA WRITE WITH IMMEDIATE into a peer's receive ring: which stream advanced, and by how
 * many bytes.
 *
 * <pre>
 *   3 3 2 2 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1
 *   1 0 9 8 7 6 5 4 3 2 1 0 9 8 7 6 5 4 3 2 1 0 9 8 7 6 5 4 3 2 1 0
 *  +-------------------+-------------------------------------------+
 *  |  Stream Id (10)   |            Advance / 8 (22)               |
 *  +-------------------+-------------------------------------------+
 * </pre>
 *
 * <p>The stream id is the stream's slot, 0 .. 1023. The advance is the number of bytes the write appended to the
 * stream's ring, a positive multiple of 8 (frames are 8-aligned) of at most {@link #MAX_ADVANCE} = 2<sup>25</sup> - 8,
 * which covers a whole ring of {@link #MAX_RING_CAPACITY}.
 *
 * <p>The value is the immediate as the SPI presents it ({@code Completion.immediate()},
 * {@code SendWorkRequest.immediate(int)}): a host-order int; converting to and from the wire's byte order is the
 * provider's job. Pure arithmetic: no allocation, no exception; the receiver checks what a peer sent with
 * {@link #isValid(int, int, int)} before using it.
 */
public final class ImmediateCodec {

    /** Bits of the stream id, at the top. */
    public static final int STREAM_ID_BITS = 10;
    /** Bits of the advance in 8-byte units, at the bottom. */
    public static final int ADVANCE_BITS = 32 - STREAM_ID_BITS;
    /** The number of stream ids an immediate can name. */
    public static final int MAX_STREAMS = 1 << STREAM_ID_BITS;
    /** The unit of the advance, in bytes: the frame alignment. */
    public static final int ADVANCE_UNIT = FrameHeaderFlyweight.ALIGNMENT;
    /** The largest advance an immediate can carry, in bytes: 2<sup>25</sup> - 8. */
    public static final int MAX_ADVANCE = ((1 << ADVANCE_BITS) - 1) * ADVANCE_UNIT;
    /** The largest ring capacity of the protocol: 16 MiB, so that one immediate can advance a whole ring. */
    public static final int MAX_RING_CAPACITY = 16 << 20;

    private static final int ADVANCE_MASK = (1 << ADVANCE_BITS) - 1;
    private static final int UNIT_SHIFT = Integer.numberOfTrailingZeros(ADVANCE_UNIT);

    private ImmediateCodec() {
    }

    /**
     * @param streamId the stream's slot, 0 .. {@link #MAX_STREAMS} - 1
     * @param advance  the bytes the write appended, a positive multiple of 8 of at most {@link #MAX_ADVANCE}
     * @return the immediate (arguments outside those ranges are a bug; checked by assertions only)
     */
    public static int encode(final int streamId, final int advance) {
        assert streamId >= 0 && streamId < MAX_STREAMS : streamId;
        assert advance > 0 && advance <= MAX_ADVANCE && (advance & (ADVANCE_UNIT - 1)) == 0 : advance;
        return (streamId << ADVANCE_BITS) | (advance >>> UNIT_SHIFT);
    }

    /**
     * @param immediate an immediate
     * @return its stream id, 0 .. 1023
     */
    public static int streamId(final int immediate) {
        return immediate >>> ADVANCE_BITS;
    }

    /**
     * @param immediate an immediate
     * @return its advance in bytes, a multiple of 8 in 0 .. {@link #MAX_ADVANCE}
     */
    public static int advance(final int immediate) {
        return (immediate & ADVANCE_MASK) << UNIT_SHIFT;
    }

    /**
     * Checks an immediate a peer sent.
     *
     * @param immediate    the immediate
     * @param maxStreams   the number of stream slots of the connection
     * @param ringCapacity the capacity of each stream's ring
     * @return true if it names a stream below {@code maxStreams} and a positive advance of at most
     *     {@code ringCapacity}
     */
    public static boolean isValid(final int immediate, final int maxStreams, final int ringCapacity) {
        final int advance = advance(immediate);
        return advance > 0 && advance <= ringCapacity && streamId(immediate) < maxStreams;
    }
}
