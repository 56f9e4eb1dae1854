package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reduced soak that {@code ./mvnw verify} (and so {@code .ci/run}) runs: the soak sample for 15 seconds; every
 * message sent is received once, in order and intact, no exchange fails, and no file is left. The full soak is its
 * own command (minutes by default, hours if asked).
 */
class SoakTest {

    private static final Pattern LAST = Pattern.compile(
        "soak: sent=(\\d+) received=(\\d+) lost=(\\d+) duplicated=(\\d+) reordered=(\\d+)");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aReducedSoakLosesDuplicatesAndReordersNothing() throws Exception {
        final int seconds = Integer.getInteger("soak.seconds", 15);
        try (SampleRun run = new SampleRun()) {
            final int status = Soak.run(new String[] {"--seconds=" + seconds, "--report-seconds=5",
                "--directory=" + run.directory}, run.out);
            final List<String> lines = run.lines();
            System.out.println(run.output());
            assertThat(status).as(run.output()).isZero();
            assertThat(lines).as("what is resident, with the shared-memory files per connection")
                .anyMatch(line -> line.matches("soak: memory with 2 connections open: resident [1-9][0-9]* MiB, of which "
                    + "shared-memory files [0-9]+ MiB \\([1-9][0-9]*\\.[0-9] MiB per connection, .*direct buffers .*"));
            assertThat(lines).as(run.output()).anyMatch(line -> line.startsWith("soak: memory high-water: resident "))
                .anyMatch(line -> line.matches("soak: exchanges=[1-9][0-9]* failed=0 corrupted=0 .*"));
            final Matcher last = LAST.matcher(lines.getLast());
            assertThat(last.matches()).as("the last line: " + lines.getLast()).isTrue();
            assertThat(Long.parseLong(last.group(1))).as("sent").isPositive();
            assertThat(last.group(2)).as("received").isEqualTo(last.group(1));
            assertThat(last.group(3) + last.group(4) + last.group(5)).as("lost, duplicated, reordered")
                .isEqualTo("000");
            assertThat(run.leftovers()).as("shared-memory files left after the soak").isEmpty();
        }
    }
}
