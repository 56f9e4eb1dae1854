package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void verbsRanksListenAtConsecutivePortsOrWhereListedAndNeedAnAddress() {
        assertThat(AllReduce.AllReduceSettings.addresses("10.77.0.1:7600", "verbs", 3))
            .containsExactly("10.77.0.1:7600", "10.77.0.1:7601", "10.77.0.1:7602");
        assertThat(AllReduce.AllReduceSettings.addresses("10.77.0.1:7600,10.77.0.2:7601", "verbs", 2))
            .containsExactly("10.77.0.1:7600", "10.77.0.2:7601");
        assertThat(AllReduce.AllReduceSettings.addresses("ring", "shm", 2)).containsExactly("ring-0", "ring-1");
        assertThatThrownBy(() -> AllReduce.AllReduceSettings.addresses(null, "verbs", 2))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--addresses");
        assertThatThrownBy(() -> AllReduce.AllReduceSettings.addresses("a:1,b:2", "verbs", 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one per rank (3), not 2");
        assertThatThrownBy(() -> AllReduce.AllReduceSettings.addresses("10.77.0.1:65535", "verbs", 2))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IP:PORT");
        final AllReduce.AllReduceSettings settings = AllReduce.AllReduceSettings.parse(SampleArguments.parse(
            new String[] {"--provider=verbs --processes=4 --addresses=10.77.0.1:7600 --devices=rxe-a,rxe-b"},
            java.util.Set.of("provider", "processes", "addresses", "devices"), "usage"));
        assertThat(settings.device(0)).isEqualTo("rxe-a");
        assertThat(settings.device(3)).isEqualTo("rxe-b");
        assertThat(settings.rankArguments(2)).contains("--rank=2", "--provider=verbs", "--devices=rxe-a,rxe-b",
            "--addresses=10.77.0.1:7600,10.77.0.1:7601,10.77.0.1:7602,10.77.0.1:7603");
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
