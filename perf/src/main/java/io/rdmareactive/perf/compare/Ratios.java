package io.rdmareactive.perf.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Ratios of each transport's figures against a baseline's from the same run: round-trip p50 and p99 (closed loop;
 * lower is better) and single-stream throughput in messages per second (higher is better).
 */
final class Ratios {

    static final List<String> BASELINES = List.of("aeron-ipc", "aeron-udp");

    private Ratios() {
    }

    /** @return {@code value / baseline}, or NaN when either is missing, not finite, or the baseline is 0 */
    static double ratio(final double value, final double baseline) {
        if (!Double.isFinite(value) || !Double.isFinite(baseline) || baseline == 0) {
            return Double.NaN;
        }
        return value / baseline;
    }

    /** @return every ratio of every non-baseline transport against every baseline present */
    static List<Results.Ratio> compute(final Results results) {
        final List<Results.Ratio> ratios = new ArrayList<>();
        final List<String> transports = new ArrayList<>(results.transports.keySet());
        for (final String baseline : BASELINES) {
            if (!transports.contains(baseline)) {
                continue;
            }
            for (final String transport : transports) {
                if (transport.equals(baseline)) {
                    continue;
                }
                for (final Results.Latency latency : results.latency) {
                    if (!latency.transport().equals(transport) || !latency.mode().equals("closed-loop")) {
                        continue;
                    }
                    latency(results, baseline, latency.size()).ifPresent(base -> {
                        for (final String percentile : List.of("p50", "p99")) {
                            final double value = latency.percentilesMicros().get(percentile);
                            final double baseValue = base.percentilesMicros().get(percentile);
                            ratios.add(new Results.Ratio("rtt-" + percentile, latency.size(), transport, baseline,
                                value, baseValue, ratio(value, baseValue), "us", true));
                        }
                    });
                }
                for (final Results.Throughput throughput : results.throughput) {
                    if (!throughput.transport().equals(transport) || throughput.streams() != 1) {
                        continue;
                    }
                    throughput(results, baseline, throughput.size()).ifPresent(base -> ratios.add(
                        new Results.Ratio("throughput", throughput.size(), transport, baseline,
                            throughput.messagesPerSecond(), base.messagesPerSecond(),
                            ratio(throughput.messagesPerSecond(), base.messagesPerSecond()), "msg/s", false)));
                }
            }
        }
        return ratios;
    }

    static Optional<Results.Latency> latency(final Results results, final String transport, final int size) {
        return results.latency.stream().filter(l -> l.transport().equals(transport) && l.size() == size
            && l.mode().equals("closed-loop")).findFirst();
    }

    static Optional<Results.Throughput> throughput(final Results results, final String transport, final int size) {
        return results.throughput.stream().filter(t -> t.transport().equals(transport) && t.size() == size
            && t.streams() == 1).findFirst();
    }

    /** @return a ratio as printed: {@code 0.52x}, or {@code n/a} */
    static String format(final double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, ratio < 10 ? "%.2fx" : "%.1fx", ratio) : "n/a";
    }
}
