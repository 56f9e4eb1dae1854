package io.rdmareactive.ring;

/**
 * A range of ring positions cut at the ring's end into at most two contiguous pieces of the ring, each an
 * {@code (offset, length)} of the ring's record area: what it takes to post one RDMA WRITE per contiguous piece.
 * Filled by {@link RingPositions#split(long, long, int, RingSplit)}.
 *
 * <p>Mutable and reusable: allocate one per driver (or per stream) and let every split overwrite it, so that splitting
 * allocates nothing. Not thread safe. Absent pieces read as offset 0 and length 0.
 */
public final class RingSplit {

    private int count;
    private int firstOffset;
    private int firstLength;
    private int secondOffset;
    private int secondLength;

    /** Creates an empty split (no pieces). */
    public RingSplit() {
    }

    /** @return the number of pieces: 0 for an empty range, 1 if it does not wrap, 2 if it does */
    public int count() {
        return count;
    }

    /** @return where the first piece starts in the ring, in {@code [0, capacity)} */
    public int firstOffset() {
        return firstOffset;
    }

    /** @return the bytes in the first piece; it ends at most at the ring's end */
    public int firstLength() {
        return firstLength;
    }

    /** @return where the second piece starts in the ring: 0, the ring's start, when there is one */
    public int secondOffset() {
        return secondOffset;
    }

    /** @return the bytes in the second piece, 0 when there is none */
    public int secondLength() {
        return secondLength;
    }

    /** @return the bytes in all pieces: the length of the range that was split */
    public int totalLength() {
        return firstLength + secondLength;
    }

    void set(final int count, final int firstOffset, final int firstLength, final int secondOffset, final int secondLength) {
        this.count = count;
        this.firstOffset = firstOffset;
        this.firstLength = firstLength;
        this.secondOffset = secondOffset;
        this.secondLength = secondLength;
    }

    @Override
    public String toString() {
        return switch (count) {
            case 0 -> "RingSplit{}";
            case 1 -> "RingSplit{[" + firstOffset + ", +" + firstLength + ")}";
            default -> "RingSplit{[" + firstOffset + ", +" + firstLength + "), [" + secondOffset + ", +" + secondLength + ")}";
        };
    }
}
