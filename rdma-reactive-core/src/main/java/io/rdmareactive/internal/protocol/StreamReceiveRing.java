package io.rdmareactive.internal.protocol;

import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Everything here is written by the peer and untrusted: an advance beyond the room the peer was given, a frame
 * that is malformed, crosses the ring's end or extends past what was announced ends the connection with a protocol
 * error. Nothing here allocates or throws on the data path.
 */
final class StreamReceiveRing {

    private final AtomicBuffer ring;
    private final int capacity;
    private final int mask;

    // driver's own state
    private long received;
    private long parsed;
    private long returned;

    private final AtomicLong parsedPublished = new AtomicLong();
    private volatile boolean corrupted;
    private final AtomicLong consumed = new AtomicLong();

    StreamReceiveRing(final AtomicBuffer ring) {
        this.ring = ring;
        this.capacity = ring.capacity();
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
        }
        this.mask = capacity - 1;
    }

    int capacity() {
        return capacity;
    }

    // ------------------------------------------------------------------------------------------------- driver

    /**
     * The peer wrote {@code advance} more bytes. Checks them frame by frame and publishes them to the consumer.
     *
     * @return {@link ProtocolError#NONE} or the error
     */
    int onAdvance(final int advance) {
        if (advance <= 0 || (advance & (FrameLayout.ALIGNMENT - 1)) != 0) {
            return ProtocolError.ADVANCE_MISALIGNED;
        }
        if (received + advance - returned > capacity) { // the peer may write only into room it was given
            return ProtocolError.ADVANCE_BEYOND_RING;
        }
        received += advance;
        long position = parsed;
        while (position < received) {
            final int index = (int) (position & mask);
            final int available = (int) Math.min(received - position, capacity - index);
            if (available < FrameLayout.HEADER_LENGTH) {
                return ProtocolError.FRAME_MALFORMED;
            }
            final int frameLength = ring.getIntVolatile(index);
            final short type = ring.getShort(index + FrameLayout.TYPE_OFFSET);
            final int reserved = ring.getByte(index + FrameLayout.FLAGS_OFFSET + 1);
            if (reserved != 0 || frameLength < FrameLayout.HEADER_LENGTH) {
                return ProtocolError.FRAME_MALFORMED;
            }
            if (type == FrameLayout.TYPE_PAD) {
                if (frameLength != capacity - index || frameLength > available) {
                    return ProtocolError.FRAME_MALFORMED;
                }
                position += frameLength;
                continue;
            }
            final int aligned = FrameLayout.align(frameLength);
            if (aligned > available || !FrameTypes.isKnown(type)) {
                return ProtocolError.FRAME_MALFORMED;
            }
            position += aligned;
        }
        parsed = position;
        parsedPublished.setRelease(position);
        return ProtocolError.NONE;
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
            final int frameLength = ring.getInt(index);
            final short type = ring.getShort(index + FrameLayout.TYPE_OFFSET);
            // the peer can write its rings at any time: check again what was checked on arrival
            final long end = position + (type == FrameLayout.TYPE_PAD ? frameLength : FrameLayout.align(frameLength));
            if (frameLength < FrameLayout.HEADER_LENGTH || end > limit || index + frameLength > capacity) {
                corrupted = true;
                return false;
            }
            if (type == FrameLayout.TYPE_PAD) {
                position = end;
                continue;
            }
            try {
                consumer.onFrame(ring, index + FrameLayout.HEADER_LENGTH, frameLength - FrameLayout.HEADER_LENGTH, type,
                    ring.getByte(index + FrameLayout.FLAGS_OFFSET));
            } finally {
                consumed.setRelease(position + FrameLayout.align(frameLength));
            }
            return true;
        }
        if (position != consumed.getPlain()) {
            consumed.setRelease(position); // only padding was left
        }
        return false;
    }

    /** @return the type of the next frame for the consumer (padding skipped), or -1 if there is none */
    int peekType() {
        long position = consumed.getPlain();
        final long limit = parsedPublished.getAcquire();
        while (position < limit) {
            final int index = (int) (position & mask);
            final short type = ring.getShort(index + FrameLayout.TYPE_OFFSET);
            if (type != FrameLayout.TYPE_PAD) {
                return type;
            }
            final int frameLength = ring.getInt(index);
            if (frameLength < FrameLayout.HEADER_LENGTH) {
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
