package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The in-process fuzz of {@link ProtocolFuzzer}: {@code -Dfuzz.cases} cases (50,000 by default, a million in the
 * nightly command) from {@code -Dfuzz.seed} (fixed by default, so that {@code ./mvnw verify} runs the same set each
 * time); zero crashes, and both verdicts reached (honest traffic accepted, hostile input refused).
 */
class ProtocolFuzzTest {

    @Test
    void aMillionHostileWritesNeverCrashTheChecksAndHonestTrafficIsNeverRefused() {
        final long cases = Long.getLong("fuzz.cases", 50_000);
        final long seed = Long.getLong("fuzz.seed", 20261202L);
        final long start = System.nanoTime();
        final ProtocolFuzzer.Result result = new ProtocolFuzzer().run(seed, cases);
        System.out.println(result + " seed=" + seed + " ms=" + (System.nanoTime() - start) / 1_000_000);
        assertThat(result.crashes()).as("crashes; the first: " + result.firstCrash()).isZero();
        assertThat(result.cases()).isEqualTo(cases);
        assertThat(result.accepted()).as("cases that ended with every frame accepted").isPositive();
        assertThat(result.rejected()).as("cases that ended with a protocol error").isPositive();
    }
}
