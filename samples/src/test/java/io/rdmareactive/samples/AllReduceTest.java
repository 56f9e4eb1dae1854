package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the all-reduce sample small, its other ranks as child JVMs: 2 ranks, and 3 ranks, whose chunks are then
 * uneven (a vector of 1 float has two empty chunks), each with slices small enough that a chunk is cut into several.
 * Checks that every rank found every element of every size right, never a timing value.
 */
class AllReduceTest {

    private static final String ROW = " +%d +%d +float +sum +[0-9.]+ +[0-9.]+ +[0-9.]+ +0";

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void twoRanksSumEveryElementOfEverySize() throws Exception {
        assertEveryCheckPassed(2, 8, 65_536);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void threeRanksSumEveryElementOfUnevenChunks() throws Exception {
        assertEveryCheckPassed(3, 4, 32_768);
    }

    private static void assertEveryCheckPassed(final int processes, final int minBytes, final int maxBytes)
        throws Exception {
        try (SampleRun run = new SampleRun()) {
            final int status = AllReduce.run(new String[] {"--processes=" + processes, "--min-bytes=" + minBytes,
                "--max-bytes=" + maxBytes, "--iterations=2 --warmup-iterations=1 --jit-warmup-iterations=5 --slice-bytes=1K --idle=backoff",
                "--directory=" + run.directory}, run.out);

            assertThat(status).as(run.output()).isZero();
            final List<String> lines = run.lines();
            int sizes = 0;
            for (int bytes = minBytes; bytes <= maxBytes; bytes *= 2, sizes++) {
                final String row = ROW.formatted(bytes, bytes / 4);
                assertThat(lines).as(run.output()).anyMatch(line -> line.matches(row));
            }
            final String rankDone = "  \\[rank [1-9]\\] rank done: " + sizes + " sizes, 0 elements wrong";
            assertThat(lines).as(run.output())
                .filteredOn(line -> line.matches(rankDone))
                .hasSize(processes - 1);
            assertThat(lines).as(run.output())
                .noneMatch(line -> line.contains("FAILED") || line.contains("WRONG"))
                .contains("# Out of bounds values : 0 OK")
                .last().isEqualTo(AllReduce.PASSED);
            assertThat(run.leftovers()).as("shared-memory files left after every rank closed").isEmpty();
        }
    }
}
