package io.rdmareactive.ring;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

/**
 * The sender's bookkeeping for a ring mirrored into a remote peer: four positions that only grow, and always stay in
 * this order:
 *
 * <pre>
 *   released = min(completed, credited)  &lt;=  completed, credited  &lt;=  sent  &lt;=  committed  &lt;=  released + capacity
 * </pre>
 *
 * <ul>
 *   <li>{@code committed}: producers have committed every record before it (learned by the driver from the send ring);</li>
 *   <li>{@code sent}: work requests that copy the ring up to it into the peer's ring are posted;</li>
 *   <li>{@code completed}: the adapter reported those work requests complete, so it no longer reads that memory;</li>
 *   <li>{@code credited}: the peer has consumed up to it (its credit, untrusted until checked);</li>
 *   <li>{@code released}: both have happened, so the ring may be written over up to there (the send ring's head).</li>
 * </ul>
 *
 * <p>Every advance is checked with {@link RingPositions#checkAdvance(long, long, long)} against the position that
 * bounds it, and applied only if {@link PositionCheck#ACCEPTED}; a rejected advance leaves every position as it was.
 * Nothing here allocates, locks or throws after construction. Owned by one thread (the driver); not thread safe.
 */
public final class SendWindow {

    private final int capacity;
    private long committed;
    private long sent;
    private long completed;
    private long credited;

    /**
     * Creates a window with every position at 0, the start of a fresh ring.
     *
     * @param capacity the ring's capacity; a power of two from {@link ManyToOneRingBuffer#MIN_CAPACITY} to
     *                 {@link RingBuffers#MAX_CAPACITY}
     * @throws IllegalArgumentException if the capacity is not valid
     */
    public SendWindow(final int capacity) {
        RingBuffers.checkCapacity(capacity, ManyToOneRingBuffer.MIN_CAPACITY, "send window");
        this.capacity = capacity;
    }

    /** @return the ring's capacity */
    public int capacity() {
        return capacity;
    }

    /** @return the position before which every record is committed */
    public long committed() {
        return committed;
    }

    /** @return the position up to which the ring is posted to the peer */
    public long sent() {
        return sent;
    }

    /** @return the position up to which the adapter has completed the posted work */
    public long completed() {
        return completed;
    }

    /** @return the position up to which the peer has returned credit */
    public long credited() {
        return credited;
    }

    /** @return the position up to which the ring may be written over: {@code min(completed, credited)} */
    public long released() {
        return Math.min(completed, credited);
    }

    /** @return the furthest position producers may reach: {@code released() + capacity} */
    public long limit() {
        return released() + capacity;
    }

    /** @return the bytes committed but not yet sent */
    public int unsent() {
        return (int) (committed - sent);
    }

    /**
     * Cuts the committed but unsent range {@code [sent, committed)} into contiguous pieces of the ring, one work
     * request each. Does not advance anything: call {@link #sendTo(long)} once the work is posted.
     *
     * @param into receives the pieces
     * @return the number of pieces, 0 to 2
     */
    public int unsentPieces(final RingSplit into) {
        RingPositions.split(sent, committed, capacity, into);
        return into.count();
    }

    /**
     * Records that producers have committed every record before {@code position}.
     *
     * @param position the new committed position; at most {@link #limit()}
     * @return whether it was accepted
     */
    public PositionCheck commitTo(final long position) {
        final PositionCheck check = RingPositions.checkAdvance(committed, position, limit());
        if (check == PositionCheck.ACCEPTED) {
            committed = position;
        }
        return check;
    }

    /**
     * Records that work is posted that copies the ring up to {@code position} to the peer.
     *
     * @param position the new sent position; at most {@link #committed()}
     * @return whether it was accepted
     */
    public PositionCheck sendTo(final long position) {
        final PositionCheck check = RingPositions.checkAdvance(sent, position, committed);
        if (check == PositionCheck.ACCEPTED) {
            sent = position;
        }
        return check;
    }

    /**
     * Records that the adapter completed the posted work up to {@code position}.
     *
     * @param position the new completed position; at most {@link #sent()}
     * @return whether it was accepted
     */
    public PositionCheck completeTo(final long position) {
        final PositionCheck check = RingPositions.checkAdvance(completed, position, sent);
        if (check == PositionCheck.ACCEPTED) {
            completed = position;
        }
        return check;
    }

    /**
     * Records credit the peer returned: it has consumed the ring up to {@code position}. The peer is untrusted: a
     * rejection means it is broken or hostile.
     *
     * @param position the new credited position; at most {@link #sent()}, since nothing unsent can be consumed
     * @return whether it was accepted
     */
    public PositionCheck creditTo(final long position) {
        final PositionCheck check = RingPositions.checkAdvance(credited, position, sent);
        if (check == PositionCheck.ACCEPTED) {
            credited = position;
        }
        return check;
    }

    /**
     * @return true if the positions are in the order the class comment draws and aligned; always true unless this
     * class has a bug (meant for tests and assertions)
     */
    public boolean invariantsHold() {
        final long released = released();
        return released >= 0
            && completed <= sent && credited <= sent && sent <= committed
            && committed - released <= capacity
            && ((committed | sent | completed | credited) & (RingPositions.ALIGNMENT - 1)) == 0;
    }

    @Override
    public String toString() {
        return "SendWindow{capacity=" + capacity + ", committed=" + committed + ", sent=" + sent + ", completed="
            + completed + ", credited=" + credited + '}';
    }
}
