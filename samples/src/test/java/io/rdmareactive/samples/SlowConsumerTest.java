package io.rdmareactive.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the slow-consumer sample with small counts and checks its verdict: every message consumed once and in
 * order, and the producer never further ahead of the consumer than the prefetch. No timing value is asserted.
 */
class SlowConsumerTest {

    private static final Pattern VERDICT = Pattern.compile("slow-consumer: produced=(\\d+) consumed=(\\d+) "
        + "in-flight-max=(\\d+) \\(bounded by prefetch (\\d+) \\+ publishOn queue (\\d+)\\) dropped=(\\d+)");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theProducerIsHeldWithinThePrefetchAndNothingIsDropped() throws Exception {
        try (SampleRun run = new SampleRun()) {
            final int status = SlowConsumer.run(new String[] {"--messages=400 --prefetch=16",
                "--consumer-delay-us=300 --report-ms=50", "--directory=" + run.directory}, run.out);

            final List<String> lines = run.lines();
            assertThat(status).as(run.output()).isZero();
            assertThat(lines).as(run.output())
                .anyMatch(line -> line.matches(" +[0-9]+\\.[0-9] s  produced +[0-9]+  consumed +[0-9]+  in flight +"
                    + "-?[0-9]+ .*"))
                .anyMatch(line -> line.startsWith("order checked: 0 out of sequence;"))
                .noneMatch(line -> line.contains("FAILED"));
            final String last = lines.getLast();
            final Matcher verdict = VERDICT.matcher(last);
            assertThat(verdict.matches()).as("the last line: " + last).isTrue();
            assertThat(Long.parseLong(verdict.group(1))).as("produced").isEqualTo(400);
            assertThat(Long.parseLong(verdict.group(2))).as("consumed").isEqualTo(400);
            assertThat(Long.parseLong(verdict.group(4))).as("prefetch").isEqualTo(16);
            assertThat(Long.parseLong(verdict.group(5))).as("publishOn's queue").isEqualTo(SlowConsumer.HANDOFF_QUEUE);
            assertThat(Long.parseLong(verdict.group(3))).as("in-flight-max")
                .isBetween(1L, 16L + SlowConsumer.HANDOFF_QUEUE);
            assertThat(Long.parseLong(verdict.group(6))).as("dropped").isZero();
            // upstream was only ever asked in steps the credit allowed, never for everything at once
            assertThat(lines).as(run.output()).anyMatch(line -> line.matches("order checked: .* requests of at most "
                + "([1-9]|1[0-6])"));
            assertThat(run.leftovers()).as("shared-memory files left after the run").isEmpty();
        }
    }
}
