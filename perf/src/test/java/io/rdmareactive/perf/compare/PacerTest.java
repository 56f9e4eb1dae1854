package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PacerTest {

    @Test
    void eventsAreDueAtAFixedInterval() {
        final Pacer pacer = new Pacer(1_000, 1000.0); // one per millisecond
        assertThat(pacer.due(0)).isEqualTo(1_000);
        assertThat(pacer.due(1)).isEqualTo(1_001_000);
        assertThat(pacer.due(250)).isEqualTo(250_001_000);
    }

    @Test
    void aStallCountsAgainstEveryRequestItDelayed() {
        // 1000/s: requests due at 0, 1, 2, 3 ms; a 10 ms stall delays request 0's reply to 10 ms, and the requests
        // that could not leave meanwhile leave late: measured from when they were due, each carries its wait
        final Pacer pacer = new Pacer(0, 1000.0);
        assertThat(pacer.correctedLatency(0, 10_000_000)).isEqualTo(10_000_000);
        assertThat(pacer.correctedLatency(1, 10_050_000)).isEqualTo(9_050_000);
        assertThat(pacer.correctedLatency(2, 10_100_000)).isEqualTo(8_100_000);
        assertThat(pacer.correctedLatency(3, 10_150_000)).isEqualTo(7_150_000);
    }

    @Test
    void aRateMustBePositive() {
        assertThatThrownBy(() -> new Pacer(0, 0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("more than 0");
    }
}
