package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ring's schedule and checks on threads of one JVM ({@link QueueRingLink}), for every ring size the sample allows
 * and vector lengths that split evenly, unevenly, into empty chunks and into several slices per chunk; and a link that
 * corrupts one float, which the checks must count.
 */
class RingAllReduceTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRankEndsWithTheSumForEveryRingSizeAndLength() throws Exception {
        for (int ranks = 2; ranks <= 8; ranks++) {
            for (final int count : new int[] {1, 2, 3, 7, 64, 1000, 4099}) {
                final int n = ranks;
                final QueueRingLink[] links = QueueRingLink.ring(n, 2, 0);
                final List<float[]> outputs = onEveryRank(n, rank -> {
                    final float[] input = new float[count];
                    for (int i = 0; i < count; i++) {
                        input[i] = AllReduceBench.input(rank, i);
                    }
                    final float[] output = new float[count];
                    final RingAllReduce allReduce = new RingAllReduce(rank, n, 16, links[rank]);
                    allReduce.run(input, output, count);
                    allReduce.run(input, output, count); // a second run over the same link and arrays
                    return output;
                });
                for (int rank = 0; rank < n; rank++) {
                    for (int i = 0; i < count; i++) {
                        float sum = 0;
                        for (int r = 0; r < n; r++) {
                            sum += AllReduceBench.input(r, i);
                        }
                        assertThat(outputs.get(rank)[i]).as("%d ranks, %d floats: rank %d, element %d", n, count,
                            rank, i).isEqualTo(sum);
                    }
                }
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCorruptedSliceIsCountedWrongOnEveryRankItReaches() throws Exception {
        final int ranks = 4;
        // rank 0's sends for one size of 64 floats (one slice per chunk): 2 barrier tokens before the JIT warm-up,
        // 2 + 2 around the warm-up runs (none here), then the timed run's 6 slices (sends 7 to 12), the checked run's
        // 6 (13 to 18) and the figures' pass
        final ConcurrentLinkedQueue<AllReduceRow> rows = new ConcurrentLinkedQueue<>();
        final QueueRingLink[] timedWrong = QueueRingLink.ring(ranks, 2, 8);
        final List<Long> notChecked = onEveryRank(ranks, rank -> new AllReduceBench(rank, ranks, 16,
            timedWrong[rank]).run(256, 256, 2, 0, 0, 1, rank == 0 ? rows::add : row -> { }));

        assertThat(notChecked).as("wrong elements by rank, the timed run's slice corrupted").containsOnly(0L);

        final QueueRingLink[] checkedWrong = QueueRingLink.ring(ranks, 2, 13);
        final List<Long> checked = onEveryRank(ranks, rank -> new AllReduceBench(rank, ranks, 16,
            checkedWrong[rank]).run(256, 256, 2, 0, 0, 1, rank == 0 ? rows::add : row -> { }));

        // rank 0's own chunk, element 0, went into the sum one too high, and the all-gather took it to every rank
        assertThat(checked).as("wrong elements by rank, the checked run's slice corrupted").containsOnly(1L);
        assertThat(rows).extracting(AllReduceRow::wrong).containsExactly(0L, 4L);
    }

    /** A rank's work. */
    private interface RankWork<T> {
        T run(int rank) throws Exception;
    }

    private static <T> List<T> onEveryRank(final int ranks, final RankWork<T> work) throws Exception {
        final ExecutorService threads = Executors.newFixedThreadPool(ranks);
        try {
            final List<Future<T>> futures = new ArrayList<>();
            for (int rank = 0; rank < ranks; rank++) {
                final int r = rank;
                futures.add(threads.submit(() -> work.run(r)));
            }
            final List<T> results = new ArrayList<>();
            for (final Future<T> future : futures) {
                results.add(future.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
