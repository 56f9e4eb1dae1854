package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RatiosTest {

    static Results.Latency latency(final String transport, final int size, final double p50, final double p99) {
        return new Results.Latency(transport, size, "closed-loop", 0, 1000,
            Map.of("p50", p50, "p90", p50, "p99", p99, "p99.9", p99, "p99.99", p99, "max", p99),
            List.of(new double[] {50, p50}, new double[] {99, p99}), null, 1.0, 0.0, 0);
    }

    static Results.Throughput throughput(final String transport, final int size, final double rate) {
        return new Results.Throughput(transport, size, 1, rate, rate * size, 100, 0, 0, 10, 10, 0, 0);
    }

    static Results sample() {
        final Results results = new Results();
        results.transports.put("aeron-ipc", "ipc");
        results.transports.put("aeron-udp", "udp");
        results.transports.put("rr-shm-raw", "raw");
        results.latency.add(latency("aeron-ipc", 32, 4.0, 10.0));
        results.latency.add(latency("aeron-udp", 32, 20.0, 50.0));
        results.latency.add(latency("rr-shm-raw", 32, 2.0, 20.0));
        results.throughput.add(throughput("aeron-ipc", 32, 1_000_000));
        results.throughput.add(throughput("rr-shm-raw", 32, 3_000_000));
        return results;
    }

    @Test
    void aRatioIsTheValueOverTheBaseline() {
        assertThat(Ratios.ratio(2.0, 4.0)).isEqualTo(0.5);
        assertThat(Ratios.ratio(2.0, 0.0)).isNaN();
        assertThat(Ratios.ratio(Double.NaN, 1.0)).isNaN();
        assertThat(Ratios.format(0.5)).isEqualTo("0.50x");
        assertThat(Ratios.format(12.34)).isEqualTo("12.3x");
        assertThat(Ratios.format(Double.NaN)).isEqualTo("n/a");
    }

    @Test
    void eachTransportIsComparedWithEachAeronBaselineOfTheSameRun() {
        final List<Results.Ratio> ratios = Ratios.compute(sample());
        assertThat(ratios).extracting(r -> r.transport() + " " + r.metric() + " " + r.baseline() + " " + r.ratio())
            .containsExactlyInAnyOrder(
                "rr-shm-raw rtt-p50 aeron-ipc 0.5", "rr-shm-raw rtt-p99 aeron-ipc 2.0",
                "rr-shm-raw throughput aeron-ipc 3.0",
                "aeron-udp rtt-p50 aeron-ipc 5.0", "aeron-udp rtt-p99 aeron-ipc 5.0",
                "rr-shm-raw rtt-p50 aeron-udp 0.1", "rr-shm-raw rtt-p99 aeron-udp 0.4",
                "aeron-ipc rtt-p50 aeron-udp 0.2", "aeron-ipc rtt-p99 aeron-udp 0.2");
    }

    @Test
    void theClosingTableShowsTheRatiosAndTheAbsoluteFigures() {
        final Results results = sample();
        results.ratios.addAll(Ratios.compute(results));
        final String table = Tables.closing(results);
        assertThat(table).contains("rr-shm-raw   32 B    |    0.50x    2.00x    3.00x |    0.10x    0.40x        -");
        assertThat(table).contains("rr-shm-flux  32 B    |        -        -        - |");
        assertThat(table).contains("this machine");
        assertThat(table).doesNotContain("rr-verbs-raw"); // no verbs device measured, no verbs rows
        results.transports.put("rr-verbs-raw", "verbs");
        assertThat(Tables.closing(results)).contains("rr-verbs-raw 32 B    |        -        -        - |");
    }
}
