package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.BYTE_ORDER;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.DATA;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.HEADER_LENGTH;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.PAD;
import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.TYPE_OFFSET;

import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The receiving half of one stream's mirrored ring: the peer RDMA-writes frames into it, and the immediate of each
 * write says how far the stream advanced. The driver checks every new frame before anything reads it; the consumer
 * (the subscriber's thread) reads checked frames in place and moves the consumed position on, which the driver
 * returns to the peer as credit in batches.
 *
 * <pre>
 *   consumed        parsed == received
 *      | being read    |                 free for the peer: up to consumed + capacity
 *   ---+---------------+------------------------------------------------&gt;
 * </pre>
 *
 * <p>Everything here is written by the peer and untrusted. On arrival every frame must pass
 * {@link FrameHeaderFlyweight#check} and, unless it is DATA or PAD, {@link #checkBody}: the body check of its
 * flyweight, and the rule of which frames travel where. An advance beyond the room the peer was given, or a frame
 * that fails a check, ends the connection with a protocol error ({@link #frameCheck()} says what was wrong). The peer
 * can rewrite its ring at any time, so what the consumer reads is checked again where it is read: the header's
 * bounds here ({@link #isCorrupted()}), the bodies by their readers. Nothing here allocates or throws on the data
 * path.
 */
final class StreamReceiveRing {

    private final AtomicBuffer ring;
    private final int capacity;
    private final int mask;
    private final int streamId;
    private final int maxStreams;

    // driver's own state
    private long received;
    private long parsed;
    private long returned;
    private int frameCheck = FrameCheck.OK;

    private final AtomicLong parsedPublished = new AtomicLong();
    private volatile boolean corrupted;
    private final AtomicLong consumed = new AtomicLong();
    /** Sees each frame handed to the consumer (a wiretap), or null: set once, before the ring's first frame. */
    private FrameTap tap;

    /**
     * @param ring       the ring's memory; capacity a power of two
     * @param streamId   the stream whose frames arrive here ({@link ProtocolStream#CONTROL_STREAM} or a data stream)
     * @param maxStreams the connection's stream slots
     */
    StreamReceiveRing(final AtomicBuffer ring, final int streamId, final int maxStreams) {
        this.ring = ring;
        this.capacity = ring.capacity();
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
        }
        this.mask = capacity - 1;
        this.streamId = streamId;
        this.maxStreams = maxStreams;
    }

    int capacity() {
        return capacity;
    }

    /** @return the ring's memory, which the peer writes (for tests that play a peer rewriting it) */
    AtomicBuffer buffer() {
        return ring;
    }

    // ------------------------------------------------------------------------------------------------- driver

    /**
     * The peer wrote {@code advance} more bytes. Checks them frame by frame and publishes them to the consumer.
     *
     * @return {@link ProtocolError#NONE} or the error; for {@link ProtocolError#FRAME_MALFORMED},
     *     {@link #frameCheck()} says which check failed
     */
    int onAdvance(final int advance) {
        if (advance <= 0 || (advance & (FrameHeaderFlyweight.ALIGNMENT - 1)) != 0) {
            return ProtocolError.ADVANCE_MISALIGNED;
        }
        if (received + advance - returned > capacity) { // the peer may write only into room it was given
            return ProtocolError.ADVANCE_BEYOND_RING;
        }
        received += advance;
        long position = parsed;
        while (position < received) {
            final int index = (int) (position & mask);
            final int header = FrameHeaderFlyweight.check(ring, index, (int) (received - position), capacity);
            if (header != FrameCheck.OK) {
                return malformed(header);
            }
            // read once and bound again: the peer may have rewritten the header since its check
            final int frameLength = ring.getInt(index + FrameHeaderFlyweight.FRAME_LENGTH_OFFSET, BYTE_ORDER);
            final short type = ring.getShort(index + TYPE_OFFSET, BYTE_ORDER);
            final long next = position + (type == PAD ? capacity - index : aligned(frameLength));
            if (frameLength < HEADER_LENGTH || next > received) {
                return malformed(FrameCheck.TOO_LONG);
            }
            if (type != DATA && type != PAD) {
                final int body = checkBody(ring, index, frameLength, type, streamId, maxStreams);
                if (body != FrameCheck.OK) {
                    return malformed(body);
                }
            }
            position = next;
        }
        parsed = position;
        parsedPublished.setRelease(position);
        return ProtocolError.NONE;
    }

    /** The frame length rounded up to the alignment, in long arithmetic: no frame length a peer writes overflows. */
    private static long aligned(final int frameLength) {
        return ((long) frameLength + FrameHeaderFlyweight.ALIGNMENT - 1) & -FrameHeaderFlyweight.ALIGNMENT;
    }

    private int malformed(final int check) {
        frameCheck = check;
        return ProtocolError.FRAME_MALFORMED;
    }

    /** @return the {@link FrameCheck} code of the frame {@link #onAdvance} last found malformed */
    int frameCheck() {
        return frameCheck;
    }

    /**
     * The body check of a frame whose header passed {@link FrameHeaderFlyweight#check}, found in the ring of stream
     * {@code streamId}: REQUEST_N, CANCEL and KEEPALIVE travel on the control stream only, and a REQUEST_N or CANCEL
     * names a data stream; COMPLETE, ERROR and OPEN travel on a data stream only, and name that stream; each passes its
     * flyweight's check. DATA and PAD have no body. Reads only {@code [index, index + frameLength)} inside the buffer;
     * never throws, never allocates.
     *
     * @param buffer      the buffer holding the frame
     * @param index       the frame's first byte (its header)
     * @param frameLength the frame length from its header
     * @param type        the frame type from its header
     * @param streamId    the stream whose ring the frame is in
     * @param maxStreams  the connection's stream slots
     * @return a {@link FrameCheck} code
     */
    static int checkBody(final DirectBuffer buffer, final int index, final int frameLength, final short type,
                         final int streamId, final int maxStreams) {
        if (streamId == ProtocolStream.CONTROL_STREAM) {
            return switch (type) {
                case PAD -> FrameCheck.OK;
                case FrameHeaderFlyweight.REQUEST_N -> namesADataStream(
                    RequestNFlyweight.check(buffer, index, frameLength, maxStreams), buffer,
                    index + RequestNFlyweight.STREAM_ID_OFFSET);
                case FrameHeaderFlyweight.CANCEL -> namesADataStream(
                    StreamControlFlyweight.check(buffer, index, frameLength, maxStreams), buffer,
                    index + StreamControlFlyweight.STREAM_ID_OFFSET);
                case FrameHeaderFlyweight.KEEPALIVE -> KeepaliveFlyweight.check(buffer, index, frameLength);
                case FrameHeaderFlyweight.REGION_CLOSED -> RegionClosedFlyweight.check(buffer, index, frameLength);
                default -> FrameCheck.WRONG_STREAM;
            };
        }
        return switch (type) {
            case PAD, DATA -> FrameCheck.OK;
            case FrameHeaderFlyweight.COMPLETE -> names(
                StreamControlFlyweight.check(buffer, index, frameLength, maxStreams), buffer,
                index + StreamControlFlyweight.STREAM_ID_OFFSET, streamId);
            case FrameHeaderFlyweight.ERROR -> names(
                ErrorFrameFlyweight.check(buffer, index, frameLength, maxStreams), buffer,
                index + ErrorFrameFlyweight.STREAM_ID_OFFSET, streamId);
            case FrameHeaderFlyweight.OPEN -> names(
                OpenFrameFlyweight.check(buffer, index, frameLength, maxStreams), buffer,
                index + OpenFrameFlyweight.STREAM_ID_OFFSET, streamId);
            default -> FrameCheck.WRONG_STREAM;
        };
    }

    /** A checked body's stream id (in range once the check passed) must be {@code streamId}. */
    private static int names(final int code, final DirectBuffer buffer, final int streamIdIndex, final int streamId) {
        if (code != FrameCheck.OK) {
            return code;
        }
        return buffer.getInt(streamIdIndex, BYTE_ORDER) == streamId ? FrameCheck.OK : FrameCheck.BAD_STREAM_ID;
    }

    /** A checked body's stream id must name a data stream: the control stream has no demand to grant or cancel. */
    private static int namesADataStream(final int code, final DirectBuffer buffer, final int streamIdIndex) {
        if (code != FrameCheck.OK) {
            return code;
        }
        return buffer.getInt(streamIdIndex, BYTE_ORDER) != ProtocolStream.CONTROL_STREAM ? FrameCheck.OK
            : FrameCheck.BAD_STREAM_ID;
    }

    /**
     * @return the consumed position to return to the peer as credit now, or -1 if it is not yet worth a write: a
     * quarter of the ring consumed since the last return, or everything received consumed
     */
    long creditToReturn() {
        final long now = consumed.getAcquire();
        if (now > returned && (now - returned >= capacity / 4 || now == parsed)) {
            returned = now;
            return now;
        }
        return -1;
    }

    /** @return true if {@link #creditToReturn()} would return a position now (driver; changes nothing) */
    boolean hasCreditToReturn() {
        final long now = consumed.getAcquire();
        return now > returned && (now - returned >= capacity / 4 || now == parsed);
    }

    /**
     * @return true if what the consumer consumed is worth returning as credit now (consumer thread): a quarter of the
     *     ring since the last return, or everything checked. It reads the driver's last return without a fence; a stale
     *     value only makes it answer true more often
     */
    boolean creditDue() {
        final long now = consumed.getPlain();
        final long last = returned;
        return now > last && (now - last >= capacity / 4 || now == parsedPublished.getAcquire());
    }

    long receivedPosition() {
        return received;
    }

    // ------------------------------------------------------------------------------------------------- consumer

    /** @return true if a checked frame waits to be read */
    boolean hasFrame() {
        return consumed.getPlain() < parsedPublished.getAcquire();
    }

    /**
     * Hands the next checked frame (skipping padding) to the consumer, then frees its bytes.
     *
     * @return true if a frame was handed over
     */
    boolean poll(final FrameConsumer consumer) {
        long position = consumed.getPlain();
        final long limit = parsedPublished.getAcquire();
        while (position < limit) {
            final int index = (int) (position & mask);
            final int frameLength = ring.getInt(index + FrameHeaderFlyweight.FRAME_LENGTH_OFFSET, BYTE_ORDER);
            final short type = ring.getShort(index + TYPE_OFFSET, BYTE_ORDER);
            // the peer can write its rings at any time: check again what was checked on arrival
            final long end = position + (type == PAD ? frameLength : aligned(frameLength));
            if (frameLength < HEADER_LENGTH || end > limit || (long) index + frameLength > capacity
                || (type == PAD && index + frameLength != capacity)) {
                corrupted = true;
                return false;
            }
            if (type == PAD) {
                position = end;
                continue;
            }
            try {
                final byte flags = ring.getByte(index + FrameHeaderFlyweight.FLAGS_OFFSET);
                if (tap != null) {
                    tap.received(streamId, type, flags, ring, index + HEADER_LENGTH, frameLength - HEADER_LENGTH);
                }
                consumer.onFrame(ring, index + HEADER_LENGTH, frameLength - HEADER_LENGTH, type, flags);
            } finally {
                consumed.setRelease(end);
            }
            return true;
        }
        if (position != consumed.getPlain()) {
            consumed.setRelease(position); // only padding was left
        }
        return false;
    }

    /** Shows each frame handed to the consumer from now on to {@code tap}; before the ring's first frame. */
    void tap(final FrameTap tap) {
        this.tap = tap;
    }

    /** @return the type of the next frame for the consumer (padding skipped), or -1 if there is none */
    int peekType() {
        long position = consumed.getPlain();
        final long limit = parsedPublished.getAcquire();
        while (position < limit) {
            final int index = (int) (position & mask);
            final short type = ring.getShort(index + TYPE_OFFSET, BYTE_ORDER);
            if (type != PAD) {
                return type;
            }
            final int frameLength = ring.getInt(index + FrameHeaderFlyweight.FRAME_LENGTH_OFFSET, BYTE_ORDER);
            if (frameLength != capacity - index) { // a PAD fills the ring to its end
                corrupted = true;
                return -1;
            }
            position += frameLength;
        }
        return -1;
    }

    /** @return true if a frame changed after it was checked: the driver ends the connection */
    boolean isCorrupted() {
        return corrupted;
    }

    long consumedPosition() {
        return consumed.getAcquire();
    }
}
