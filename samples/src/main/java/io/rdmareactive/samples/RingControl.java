package io.rdmareactive.samples;

/**
 * What the ranks of a ring agree on between all-reduces, over the same {@link RingLink}: a barrier, and the
 * gathering of each rank's figures to rank 0. Each is a pass of one small slice around the ring, started by rank 0.
 */
final class RingControl {

    /** A count travels as two floats of at most 20 bits each, so that a sum over 8 ranks stays exact in a float. */
    private static final int LOW_BITS = 20;

    private final int rank;
    private final RingLink link;

    /** @param rank this rank; rank 0 starts every pass and gets its result */
    RingControl(final int rank, final RingLink link) {
        this.rank = rank;
        this.link = link;
    }

    /** Returns once every rank has called it: rank 0 once all arrived, the others once rank 0 knows that. */
    void barrier() throws InterruptedException {
        final float[] token = new float[1];
        pass(token);
        pass(token);
    }

    /**
     * Gathers two figures of every rank to rank 0: the greatest of the times and the sum of the counts.
     *
     * @param micros this rank's time
     * @param count  this rank's count, below 2^31
     * @throws InterruptedException if interrupted while waiting for a neighbour
     * @return on rank 0, {the greatest time, the sum of the counts}; on the others, what the ranks up to this one had
     */
    double[] maxTimeAndSumCount(final double micros, final long count) throws InterruptedException {
        final float[] mine = {(float) micros, count >>> LOW_BITS, count & ((1 << LOW_BITS) - 1)};
        final float[] all = new float[mine.length];
        if (rank == 0) {
            link.send(mine, 0, mine.length);
            link.awaitReceived(link.expect(all, null, 0, all.length));
            link.awaitSent();
        } else {
            link.awaitReceived(link.expect(all, null, 0, all.length));
            all[0] = Math.max(all[0], mine[0]);
            all[1] += mine[1];
            all[2] += mine[2];
            link.send(all, 0, all.length);
            link.awaitSent();
        }
        return new double[] {all[0], ((long) all[1] << LOW_BITS) + (long) all[2]};
    }

    /** One slice from rank 0 around the ring back to rank 0: each other rank receives it, then passes it on. */
    private void pass(final float[] slice) throws InterruptedException {
        if (rank == 0) {
            link.send(slice, 0, slice.length);
            // what comes back went around the ring, so it was sent from the slice before it overwrites it
            link.awaitReceived(link.expect(slice, null, 0, slice.length));
        } else {
            link.awaitReceived(link.expect(slice, null, 0, slice.length));
            link.send(slice, 0, slice.length);
            link.awaitSent();
        }
    }
}
