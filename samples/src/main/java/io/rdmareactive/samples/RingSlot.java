package io.rdmareactive.samples;

import java.lang.foreign.MemorySegment;

/**
 * Where one expected slice from the left neighbour goes, as a {@code RingLink.expect} named it.
 *
 * @param target where the slice is stored
 * @param addend added to it element by element, or null
 * @param offset the first element of target (and addend) the slice covers
 * @param count  its floats
 */
public record RingSlot(float[] target, float[] addend, int offset, int count) {

    /**
     * Stores a received frame here.
     *
     * @throws IllegalStateException if the frame is not {@code count} floats long
     */
    public void store(final MemorySegment frame) {
        if (frame.byteSize() != (long) count * Float.BYTES) {
            throw new IllegalStateException("the left neighbour sent " + frame.byteSize() + " bytes where "
                + count * Float.BYTES + " were expected");
        }
        FloatCopies.store(frame, target, addend, offset);
    }
}
