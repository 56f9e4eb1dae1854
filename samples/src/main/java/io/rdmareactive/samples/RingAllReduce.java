package io.rdmareactive.samples;

/**
 * The ring all-reduce of float vectors (a sum), over a {@link RingLink}: the vector is cut into one chunk per rank,
 * each chunk into slices of at most {@code sliceFloats}. In the reduce-scatter (steps 0 to n-2) rank r sends chunk
 * r - s and receives chunk r - s - 1, adding its own input to it; after it, rank r holds the whole sum of chunk r + 1.
 * In the all-gather (steps n-1 to 2n-3) each rank passes the summed chunks on around the ring. What a rank sends at a
 * step is what it received at the step before, so a slice goes out as soon as the same slice of the step before is in:
 * every chunk is pipelined slice by slice through the ring.
 *
 * <p>The reduction is out of place: {@code input} is only read, and every element of {@code output} is written.
 */
final class RingAllReduce {

    private final int rank;
    private final int ranks;
    private final int sliceFloats;
    private final RingLink link;

    /**
     * @param rank        this rank, 0 to ranks - 1; its right neighbour is rank + 1 (mod ranks)
     * @param ranks       how many ranks the ring has, at least 2
     * @param sliceFloats the most floats one slice carries
     * @param link        this rank's link to its neighbours
     */
    RingAllReduce(final int rank, final int ranks, final int sliceFloats, final RingLink link) {
        if (ranks < 2 || rank < 0 || rank >= ranks || sliceFloats < 1) {
            throw new IllegalArgumentException("rank " + rank + " of " + ranks + ", slices of " + sliceFloats);
        }
        this.rank = rank;
        this.ranks = ranks;
        this.sliceFloats = sliceFloats;
        this.link = link;
    }

    /**
     * Sums {@code input} element by element over every rank into {@code output}, the first {@code count} elements.
     * Every rank calls it with the same count.
     */
    void run(final float[] input, final float[] output, final int count) throws InterruptedException {
        final int steps = 2 * (ranks - 1);
        // every receive of this run is asked for at once, in the order the left neighbour sends
        long first = 0;
        long last = 0;
        for (int step = 0; step < steps; step++) {
            final int chunk = receivedChunk(step);
            final int start = chunkStart(chunk, count);
            final int length = chunkStart(chunk + 1, count) - start;
            for (int offset = 0; offset < length; offset += sliceFloats) {
                last = link.expect(output, step < ranks - 1 ? input : null, start + offset,
                    Math.min(sliceFloats, length - offset));
                first = first == 0 ? last : first;
            }
        }
        long received = first - 1;
        for (int step = 0; step < steps; step++) {
            final int chunk = sentChunk(step);
            final int start = chunkStart(chunk, count);
            final int length = chunkStart(chunk + 1, count) - start;
            for (int offset = 0; offset < length; offset += sliceFloats) {
                if (step > 0) {
                    // the same slice of the step before: received (and summed) before it goes on
                    link.awaitReceived(++received);
                }
                link.send(step == 0 ? input : output, start + offset, Math.min(sliceFloats, length - offset));
            }
        }
        // the next run's receives may overwrite what this one sends: it ends once everything went
        link.awaitSent();
        link.awaitReceived(last);
    }

    /**
     * @return the chunk this rank sends at a step: its own first, then each one it received the step before (in the
     *     all-gather too: after the reduce-scatter's n - 1 steps, rank - step is rank + 1, the chunk it summed last)
     */
    private int sentChunk(final int step) {
        return Math.floorMod(rank - step, ranks);
    }

    /** @return the chunk this rank receives at a step: what its left neighbour sends then */
    private int receivedChunk(final int step) {
        return Math.floorMod(rank - 1 - step, ranks);
    }

    /** @return where chunk c starts: the count split as evenly as it goes */
    private int chunkStart(final int chunk, final int count) {
        return (int) ((long) count * chunk / ranks);
    }
}
