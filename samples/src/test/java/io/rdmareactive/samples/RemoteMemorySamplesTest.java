package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the two remote-memory samples with small counts, each with its second processes as child JVMs: the remote
 * lookup (one-sided READs against requestResponse calls) and the shared counter (several processes' FETCH_AND_ADDs).
 * Checks what they report (every lookup right, the counter exact), never a timing value.
 */
class RemoteMemorySamplesTest {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyRemoteLookupIsRightBothWays() throws Exception {
        try (SampleRun run = new SampleRun()) {
            final int status = RemoteLookup.run(new String[] {"--keys=5000 --lookups=4000 --in-flight=4",
                "--idle=backoff", "--directory=" + run.directory}, run.out);

            assertThat(status).as(run.output()).isZero();
            assertThat(run.lines()).as(run.output())
                .anyMatch(line -> line.startsWith("  [server] lookup server: listening at "))
                .anyMatch(line -> line.matches("one-sided READ: 4000 lookups, [0-9]+ hits with the right value, "
                    + "[1-9][0-9]* misses of absent keys, 0 wrong; [0-9]+ READs, [0-9]+ of them second READs"))
                .anyMatch(line -> line.matches("requestResponse: 4000 lookups, [0-9]+ hits with the right value, "
                    + "[1-9][0-9]* misses of absent keys, 0 wrong"))
                .anyMatch(line -> line.matches("one-sided READ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ us +[12]\\.[0-9]{3}"))
                .anyMatch(line -> line.matches("requestResponse +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ us +-"))
                .noneMatch(line -> line.contains("WRONG") || line.contains("FAILED"))
                .last().isEqualTo(RemoteLookup.PASSED);
            assertThat(run.leftovers()).as("shared-memory files left after both sides closed").isEmpty();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theSharedCounterEndsExactlyAtProcessesTimesIncrements() throws Exception {
        try (SampleRun run = new SampleRun()) {
            final int status = SharedCounter.run(new String[] {"--processes=2 --increments=3000",
                "--directory=" + run.directory}, run.out);

            assertThat(status).as(run.output()).isZero();
            assertThat(run.lines()).as(run.output())
                .filteredOn(line -> line.matches("  \\[client [12]\\] incrementer done: 3000 increments, values "
                    + "before rising strictly: yes, .*")).hasSize(2);
            assertThat(run.lines()).as(run.output())
                .contains("counter: 6000, expected 6000 (2 processes x 3000 increments): exact")
                .contains("values before, summed over every client: 17997000, expected 0 + 1 + ... + 5999 = "
                    + "17997000: equal")
                .last().isEqualTo(SharedCounter.PASSED);
            assertThat(run.leftovers()).as("shared-memory files left after every process closed").isEmpty();
        }
    }
}
