package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultsJsonTest {

    @Test
    void everyFigureIsWrittenAndReadsBackAsJson() throws Exception {
        final Results results = RatiosTest.sample();
        results.ratios.addAll(Ratios.compute(results));
        results.backpressure.add(new Results.Backpressure("rr-shm-raw", 1024, 20000, 19990, 19995, 100, 100, 0, 0,
            1 << 20, 2 << 20, List.of(new Results.MemorySample(0.1, 1 << 20, 2 << 20))));
        results.throughput.add(new Results.Throughput("aeron-udp", 32, 1, 0, 0, Double.NaN, Double.NaN, 0, 0, 0, 0,
            0));
        results.failures.add(new Results.Failure("rr-verbs-raw", "all", "skipped: no device"));
        results.environment.put("cores", 2);

        final JsonNode json = new ObjectMapper().readTree(ResultsJson.toJson(results));

        assertThat(json.get("environment").get("cores").asInt()).isEqualTo(2);
        final JsonNode first = json.get("latency").get(0);
        assertThat(first.get("transport").asText()).isEqualTo("aeron-ipc");
        assertThat(first.get("percentilesMicros").get("p99").asDouble()).isEqualTo(10.0);
        assertThat(first.get("curve").get(1).get(1).asDouble()).isEqualTo(10.0);
        assertThat(json.get("throughput").get(2).get("cpuNanosPerMessage").asText()).isEqualTo("NaN");
        assertThat(json.get("backpressure").get(0).get("memory").get(0).get("rssBytes").asLong()).isEqualTo(2 << 20);
        assertThat(json.get("ratios")).hasSize(results.ratios.size());
        assertThat(json.get("failures").get(0).get("reason").asText()).isEqualTo("skipped: no device");
        assertThat(json.get("note").asText()).contains("this machine");
    }
}
