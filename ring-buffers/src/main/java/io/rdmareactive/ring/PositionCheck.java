package io.rdmareactive.ring;

/**
 * The verdict on a position that someone proposes to advance to, typically a position a remote peer wrote into our
 * memory ({@link RingPositions#checkAdvance(long, long, long)}). A status rather than an exception, so that hostile or
 * broken input costs nothing on the hot path; the caller decides what a rejection means (usually: close the
 * connection and say which check failed).
 */
public enum PositionCheck {
    /** The position is legal: not behind the current one, not past the limit, aligned to a record boundary. */
    ACCEPTED,
    /** The position is behind the current one; positions only ever grow. */
    BACKWARDS,
    /** The position is past the limit (what was sent, or what the ring can hold). */
    BEYOND_LIMIT,
    /** The position is not a multiple of {@link RingPositions#ALIGNMENT}, so it cannot be a record boundary. */
    MISALIGNED;

    /** @return true for {@link #ACCEPTED} */
    public boolean isAccepted() {
        return this == ACCEPTED;
    }
}
