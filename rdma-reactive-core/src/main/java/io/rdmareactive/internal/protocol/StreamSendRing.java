package io.rdmareactive.internal.protocol;

import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The sending half of one stream's mirrored ring: frames are encoded straight into this ring (registered memory the
 * adapter can read), and the driver copies each committed range {@code [sent, producer)} to the same offsets of the
 * peer's receive ring with RDMA WRITE WITH IMMEDIATE.
 *
 * <pre>
 *   positions (64-bit, only ever grow; index = position &amp; (capacity - 1)):
 *
 *   released        sent            producer
 *      |  in flight or |  committed,   |   free: up to released + capacity
 *      |  unconsumed   |  not yet sent |
 *   ---+---------------+---------------+--------------------------------&gt;
 *
 *   released = min(completed, credited): the adapter has finished reading the bytes (write completion) and the
 *   peer has consumed them (its consumed position, RDMA-written into this side's credit line).
 * </pre>
 *
 * <p>One producer thread at a time claims and commits (a stream's {@code onNext} calls are serialised); the driver
 * thread reads the producer position, records what it sent and completed, and checks the peer's credit. A full
 * ring is back-pressure: {@link #claim(int)} returns {@link #BACK_PRESSURED}. Nothing here allocates or throws on
 * the data path.
 */
final class StreamSendRing {

    /** {@link #claim(int)} found no room: wait for credit. */
    static final int BACK_PRESSURED = -1;

    private final AtomicBuffer ring;
    private final int capacity;
    private final int mask;
    private final AtomicBuffer creditLine;
    /** With direct peer access: the peer's word this ring publishes its committed position to; else null. */
    private final AtomicBuffer publishLine;
    /** With direct peer access: how a publish tells the peer's loop to look; else null. */
    private final PeerDoorbell peer;
    /** Where a commit tells the connection's loop that this stream has work; null for a ring on its own (tests). */
    private final StreamMarks marks;
    private final int streamId;
    /** The peer's look-flag bit for this stream ({@link PeerDoorbell#streamBit}). */
    private final long lookBit;
    /** Sees each committed frame (a wiretap), or null: set once, before the ring's first frame. */
    private FrameTap tap;

    // producer's own state
    private long claimEnd;
    private int claimIndex = -1;
    private int claimFrameLength;
    private long releasedCache;

    private final AtomicLong producer = new AtomicLong();
    private final AtomicLong released = new AtomicLong();

    // driver's own state
    private long sent;
    private long completed;
    private long credited;

    /**
     * @param ring       the ring's memory; capacity a power of two
     * @param creditLine where the peer RDMA-writes its consumed position (a {@link CheckedWord} at offset 0)
     */
    StreamSendRing(final AtomicBuffer ring, final AtomicBuffer creditLine) {
        this(ring, creditLine, null, null, null, 0);
    }

    /**
     * A ring whose commits mark its stream for the connection's loop.
     *
     * @param marks    the connection's marks
     * @param streamId the stream this ring sends
     */
    StreamSendRing(final AtomicBuffer ring, final AtomicBuffer creditLine, final StreamMarks marks,
                   final int streamId) {
        this(ring, creditLine, null, null, marks, streamId);
    }

    /**
     * A ring laid straight over the peer's receive ring (direct peer access): a commit publishes its position into
     * the peer's memory with a release store, and nothing is posted; space is released by the peer's credit alone.
     *
     * @param ring        the peer's receive ring, mapped here
     * @param creditLine  where the peer writes its consumed position
     * @param publishLine the peer's word for this ring's committed position (a long at offset 0), or null to post
     * @param peer        how a publish tells the peer's loop to look at this connection; null without
     *                    {@code publishLine}
     * @param marks       the connection's marks, or null for a ring on its own
     * @param streamId    the stream this ring sends
     */
    StreamSendRing(final AtomicBuffer ring, final AtomicBuffer creditLine, final AtomicBuffer publishLine,
                   final PeerDoorbell peer, final StreamMarks marks, final int streamId) {
        this.publishLine = publishLine;
        this.peer = peer;
        this.marks = marks;
        this.streamId = streamId;
        this.lookBit = PeerDoorbell.streamBit(streamId);
        if (publishLine != null) {
            completed = Long.MAX_VALUE; // nothing for an adapter to finish reading
        }
        this.ring = ring;
        this.capacity = ring.capacity();
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
        }
        this.mask = capacity - 1;
        this.creditLine = creditLine;
    }

    int capacity() {
        return capacity;
    }

    /** @return the largest payload one frame can carry in this ring */
    int maxPayload() {
        return capacity / 4 - FrameHeaderFlyweight.HEADER_LENGTH;
    }

    // ------------------------------------------------------------------------------------------------- producer

    /**
     * Claims room for one frame.
     *
     * @param payloadLength bytes of payload, at most {@link #maxPayload()}
     * @return the index of the frame's payload in {@link #buffer()} (the frame's header is the
     *     {@link FrameHeaderFlyweight#HEADER_LENGTH} bytes before it, where a flyweight of a control frame is wrapped),
     *     or {@link #BACK_PRESSURED}
     */
    int claim(final int payloadLength) {
        if (payloadLength < 0 || payloadLength > maxPayload()) {
            throw new IllegalArgumentException("payload of " + payloadLength + " bytes does not fit one frame of "
                + "this ring (at most " + maxPayload() + "): fragment it");
        }
        final int frameLength = FrameHeaderFlyweight.HEADER_LENGTH + payloadLength;
        final int aligned = FrameHeaderFlyweight.alignedLength(frameLength);
        final long position = producer.getPlain();
        final int index = (int) (position & mask);
        final int toEnd = capacity - index;
        final int pad = aligned > toEnd ? toEnd : 0;
        final long end = position + pad + aligned;
        if (end - releasedCache > capacity) {
            releasedCache = released.getAcquire();
            if (end - releasedCache > capacity) {
                return BACK_PRESSURED;
            }
        }
        if (pad > 0) {
            FrameHeaderFlyweight.write(ring, index, toEnd, FrameHeaderFlyweight.PAD, 0);
        }
        claimIndex = pad > 0 ? 0 : index;
        claimFrameLength = frameLength;
        claimEnd = end;
        return claimIndex + FrameHeaderFlyweight.HEADER_LENGTH;
    }

    /** @return the ring's memory, where the claimed payload is written */
    AtomicBuffer buffer() {
        return ring;
    }

    /**
     * Publishes the claimed frame to the driver, writing its header (the claimed length, the type, the flags, the
     * reserved byte 0): the same header a control frame's flyweight already wrote, if one did.
     *
     * @param type  a {@link FrameHeaderFlyweight} frame type
     * @param flags {@link FrameHeaderFlyweight#FIRST} and {@link FrameHeaderFlyweight#LAST} on DATA; 0 otherwise
     */
    void commit(final short type, final byte flags) {
        final int index = claimIndex;
        if (index < 0) {
            throw new IllegalStateException("commit without a claim");
        }
        FrameHeaderFlyweight.write(ring, index, claimFrameLength, type, flags & 0xFF);
        claimIndex = -1;
        if (tap != null) {
            tap.sent(streamId, type, flags, ring, index + FrameHeaderFlyweight.HEADER_LENGTH,
                claimFrameLength - FrameHeaderFlyweight.HEADER_LENGTH);
        }
        producer.setRelease(claimEnd);
        if (publishLine != null) {
            publishLine.putLongRelease(0, claimEnd); // the frame's bytes are in the peer's ring before this
        }
        if (marks != null) {
            marks.markCommit(streamId); // a full fence first: the positions above are visible before the marks are read
        }
        if (peer != null) {
            if (marks != null) {
                peer.ringFenced(lookBit); // markCommit made the fence: the peer's loop looks at this stream again
            } else {
                peer.ring(lookBit);
            }
        }
    }

    /** Shows each frame committed from now on to {@code tap}; before the ring's first frame, on its creating thread. */
    void tap(final FrameTap tap) {
        this.tap = tap;
    }

    /** @return true if commits publish straight into the peer's memory (direct peer access) */
    boolean isDirect() {
        return publishLine != null;
    }

    /** Gives the claimed room back; nothing is published. */
    void abort() {
        claimIndex = -1;
    }

    /** @return bytes free for the producer now (a snapshot) */
    long free() {
        return capacity - (producer.getPlain() - released.getAcquire());
    }

    // ------------------------------------------------------------------------------------------------- driver

    /** @return the committed position (driver) */
    long producerPosition() {
        return producer.getAcquire();
    }

    long sentPosition() {
        return sent;
    }

    /** Records that everything up to {@code position} has been posted. */
    void sentTo(final long position) {
        sent = position;
    }

    /** The adapter has finished reading everything up to {@code position}. */
    void completedTo(final long position) {
        if (position > completed) {
            completed = position;
            publishReleased();
        }
    }

    /**
     * Reads the peer's consumed position from the credit line and checks it: it may not go backwards, pass what was
     * sent, or break the frame alignment. The peer is untrusted.
     *
     * @return {@link ProtocolError#NONE} or the error
     */
    int refreshCredit() {
        final long value = CheckedWord.read(creditLine, 0);
        if (value == CheckedWord.TORN || value == credited) { // torn: caught mid-write, read again next cycle
            return ProtocolError.NONE;
        }
        if (value < credited) {
            return ProtocolError.CREDIT_BACKWARDS;
        }
        // direct: the peer may consume what a producer published after the loop last looked; read after the credit
        if (value > (publishLine != null ? producer.getAcquire() : sent)) {
            return ProtocolError.CREDIT_BEYOND_SENT;
        }
        if ((value & (FrameHeaderFlyweight.ALIGNMENT - 1)) != 0) {
            return ProtocolError.CREDIT_MISALIGNED;
        }
        credited = value;
        publishReleased();
        return ProtocolError.NONE;
    }

    /** @return true when everything committed has been posted and the adapter has finished with it (driver) */
    boolean isFlushed() {
        return publishLine != null || producer.getAcquire() == sent && completed == sent;
    }

    long creditedPosition() {
        return credited;
    }

    /**
     * What was committed and is not known to be in the peer's memory (driver): without direct peer access, the bytes
     * from the last completed write to the committed position, and the messages that begin in them (DATA frames
     * flagged FIRST, read from this side's own ring). With direct peer access, nothing: a commit is in the peer's
     * ring.
     *
     * @return {bytes, messages}
     */
    long[] unconfirmed() {
        if (publishLine != null) {
            return new long[] {0, 0};
        }
        final long end = producer.getAcquire();
        long position = Math.min(completed, end);
        long messages = 0;
        while (position < end) {
            final int index = (int) (position & mask);
            final short type = ring.getShort(index + FrameHeaderFlyweight.TYPE_OFFSET, FrameHeaderFlyweight.BYTE_ORDER);
            if (type == FrameHeaderFlyweight.PAD) {
                position += capacity - index;
                continue;
            }
            final int length = ring.getInt(index + FrameHeaderFlyweight.FRAME_LENGTH_OFFSET,
                FrameHeaderFlyweight.BYTE_ORDER);
            final byte flags = ring.getByte(index + FrameHeaderFlyweight.FLAGS_OFFSET);
            if (type == FrameHeaderFlyweight.DATA && (flags & FrameHeaderFlyweight.FIRST) != 0) {
                messages++;
            }
            position += FrameHeaderFlyweight.alignedLength(Math.max(length, FrameHeaderFlyweight.HEADER_LENGTH));
        }
        return new long[] {end - Math.min(completed, end), messages};
    }

    /**
     * @return true while the loop must keep looking at this ring (driver): committed bytes wait to be posted, or the
     *     peer has not yet consumed everything committed (its credit is polled until it has)
     */
    boolean isBusy() {
        final long position = producer.getAcquire();
        return position != sent || position != credited;
    }

    private void publishReleased() {
        released.setRelease(Math.min(completed, credited));
    }
}
