package io.rdmareactive.perf.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every figure of a run, as written to {@code results.json}. Times in microseconds unless a name says otherwise. */
final class Results {

    /** One ping-pong measurement: round-trip times of one transport at one size, closed loop or fixed rate. */
    record Latency(String transport, int size, String mode, double ratePerSecond, long roundTrips,
                   Map<String, Double> percentilesMicros, List<double[]> curve, Map<String, Double> uncorrectedMicros,
                   double cpuMicrosPerRoundTrip, double allocatedBytesPerRoundTrip, long wrongEchoes) {
    }

    /** One throughput measurement: one transport, one size, one or several streams. */
    record Throughput(String transport, int size, int streams, double messagesPerSecond, double bytesPerSecond,
                      double cpuNanosPerMessage, double allocatedBytesPerMessage, long garbageCollections,
                      long sent, long received, long lost, long outOfOrder) {
    }

    /** A producer against a consumer throttled to a set rate. */
    record Backpressure(String transport, int size, double consumerRatePerSecond, double producerRatePerSecond,
                        double consumedRatePerSecond, long sent, long received, long lost, long outOfOrder,
                        long peakHeapBytes, long peakRssBytes, List<MemorySample> memory) {
    }

    /** Memory at one moment of a backpressure run. */
    record MemorySample(double seconds, long heapUsedBytes, long rssBytes) {
    }

    /** A measurement that could not be made, and why. */
    record Failure(String transport, String workload, String reason) {
    }

    /** One figure of one transport against the same figure of a baseline measured in the same run. */
    record Ratio(String metric, int size, String transport, String baseline, double value, double baselineValue,
                 double ratio, String unit, boolean lowerIsBetter) {
    }

    final Map<String, Object> environment = new LinkedHashMap<>();
    final Map<String, Object> settings = new LinkedHashMap<>();
    final Map<String, String> transports = new LinkedHashMap<>();
    final List<Latency> latency = new ArrayList<>();
    final List<Throughput> throughput = new ArrayList<>();
    final List<Backpressure> backpressure = new ArrayList<>();
    final List<Failure> failures = new ArrayList<>();
    final List<Ratio> ratios = new ArrayList<>();

    /** @return the view Jackson writes */
    Map<String, Object> asMap() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("note", "absolute figures are this machine's, measured in one run; ratios compare transports of "
            + "the same run");
        map.put("environment", environment);
        map.put("settings", settings);
        map.put("transports", transports);
        map.put("latency", latency);
        map.put("throughput", throughput);
        map.put("backpressure", backpressure);
        map.put("ratios", ratios);
        map.put("failures", failures);
        return map;
    }
}
