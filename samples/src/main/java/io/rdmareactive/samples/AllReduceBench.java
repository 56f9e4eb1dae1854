package io.rdmareactive.samples;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The measurement around {@link RingAllReduce}, as nccl-tests' all_reduce_perf makes it: for each size, warm-up
 * runs, then timed runs between barriers (each rank's average, the greatest over the ranks reported), then one more
 * run into an output cleared to NaN whose every element is compared with the sum this rank computes itself. Written
 * against a {@link RingLink} only, so any transport runs the same code.
 *
 * <p>Rank r's input element i is a small integer ({@link #input}), so every partial sum is an integer below 2^24 and
 * exact in a float whatever the order of the additions: the check is equality.
 */
public final class AllReduceBench {

    private final int rank;
    private final int ranks;
    private final RingAllReduce allReduce;
    private final RingControl control;

    /**
     * @param rank        this rank, 0 to ranks - 1; its right neighbour is rank + 1 (mod ranks)
     * @param ranks       how many ranks the ring has, at least 2
     * @param sliceFloats the most floats one slice carries
     * @param link        this rank's link to its neighbours
     */
    public AllReduceBench(final int rank, final int ranks, final int sliceFloats, final RingLink link) {
        this.rank = rank;
        this.ranks = ranks;
        this.allReduce = new RingAllReduce(rank, ranks, sliceFloats, link);
        this.control = new RingControl(rank, link);
    }

    /** @return rank r's input element i: an integer from -30 to 30 */
    static float input(final int rank, final int index) {
        return (float) (Math.floorMod(index * 31 + rank * 17, 61) - 30);
    }

    /**
     * Runs every size, from {@code minBytes} to {@code maxBytes}, each {@code factor} times the one before, after
     * {@code jitWarmups} untimed runs of the smallest size (a JVM runs its first thousands of calls interpreted, which
     * would otherwise show as the small sizes' times). Every rank calls it with the same arguments.
     *
     * @param rows on rank 0, given each size's result over all ranks; on the others, this rank's own
     * @throws InterruptedException if interrupted while waiting for a neighbour
     * @throws IllegalStateException if the link failed or stalled
     * @return the elements this rank found wrong, over every size
     */
    public long run(final long minBytes, final long maxBytes, final int factor, final int jitWarmups, final int warmups,
             final int iterations, final Consumer<AllReduceRow> rows) throws InterruptedException {
        final int largest = Math.toIntExact(maxBytes / Float.BYTES);
        final float[] input = new float[largest];
        for (int i = 0; i < largest; i++) {
            input[i] = input(rank, i);
        }
        final float[] output = new float[largest];
        control.barrier();
        for (int i = 0; i < jitWarmups; i++) {
            allReduce.run(input, output, (int) (minBytes / Float.BYTES));
        }
        long wrongHere = 0;
        for (long bytes = minBytes; bytes <= maxBytes; bytes *= factor) {
            final int count = (int) (bytes / Float.BYTES);
            control.barrier();
            for (int i = 0; i < warmups; i++) {
                allReduce.run(input, output, count);
            }
            control.barrier();
            final long start = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                allReduce.run(input, output, count);
            }
            final double micros = (System.nanoTime() - start) / 1e3 / Math.max(1, iterations);
            Arrays.fill(output, 0, count, Float.NaN);
            allReduce.run(input, output, count);
            final long wrong = wrong(output, count);
            wrongHere += wrong;
            final double[] gathered = control.maxTimeAndSumCount(micros, wrong);
            rows.accept(rank == 0 ? new AllReduceRow(bytes, count, ranks, gathered[0], (long) gathered[1])
                : new AllReduceRow(bytes, count, ranks, micros, wrong));
            if (bytes > maxBytes / factor) {
                break; // the next size would pass the largest (and a long could wrap)
            }
        }
        return wrongHere;
    }

    /** @return how many of the first count elements differ from the sum over every rank's input */
    private long wrong(final float[] output, final int count) {
        long wrong = 0;
        for (int i = 0; i < count; i++) {
            float sum = 0;
            for (int r = 0; r < ranks; r++) {
                sum += input(r, i);
            }
            if (output[i] != sum) {
                wrong++;
            }
        }
        return wrong;
    }
}
