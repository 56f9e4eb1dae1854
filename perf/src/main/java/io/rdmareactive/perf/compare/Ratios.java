package io.rdmareactive.perf.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Ratios of each transport's figures against a baseline's from the same run: round-trip p50 and p99 (closed loop;
 * lower is better) and single-stream throughput in messages per second (higher is better). Further ratios where
 * both sides were measured: request-response round trips against the same transport's ping-pong, K connections'
 * round trips against one connection's, throughput against the memcpy baseline, and the rma workload's one-sided
 * reads against the request-response calls beside them (median and server CPU per operation).
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

    /** Request-response p50 (one in flight) against the same transport's closed-loop ping-pong p50, same size. */
    static final String RR_VS_PING_PONG = "request-response-rtt-p50-vs-ping-pong";
    /** Throughput (one stream) against the memcpy baseline, same size. */
    static final String THROUGHPUT_VS_MEMCPY = "throughput-vs-memcpy";

    /** One-sided read p50 (one in flight) against request-response p50 on the same transport, same size. */
    static final String RMA_READ_VS_RR = "rma-read-p50-vs-request-response-p50";
    /** The server process's CPU per one-sided read (one in flight) against per request-response call, same size. */
    static final String RMA_READ_SERVER_CPU_VS_RR = "rma-read-server-cpu-vs-request-response";

    /** @return the metric of K connections' round-trip p50 against one connection's */
    static String connectionsMetric(final int connections) {
        return "rtt-p50-" + connections + "-connections-vs-1";
    }

    /** @return every ratio of every non-baseline transport against every baseline present, then the further ones */
    static List<Results.Ratio> compute(final Results results) {
        final List<Results.Ratio> ratios = againstAeron(results);
        ratios.addAll(further(results));
        return ratios;
    }

    private static List<Results.Ratio> againstAeron(final Results results) {
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

    /** @return the ratios of the request-response, connections and memcpy workloads, where both sides were measured */
    static List<Results.Ratio> further(final Results results) {
        final List<Results.Ratio> ratios = new ArrayList<>();
        for (final Results.RequestResponse rr : results.requestResponse) {
            if (rr.inFlight() == 1 && rr.calls() > 0) {
                latency(results, rr.transport(), rr.size()).ifPresent(ping -> {
                    final double value = rr.percentilesMicros().get("p50");
                    final double base = ping.percentilesMicros().get("p50");
                    ratios.add(new Results.Ratio(RR_VS_PING_PONG, rr.size(), rr.transport(),
                        rr.transport() + " ping-pong closed-loop p50", value, base, ratio(value, base), "us", true));
                });
            }
        }
        for (final Results.Connections point : results.connections) {
            if (point.connections() == 1 || point.failure() != null) {
                continue;
            }
            results.connections.stream().filter(one -> one.transport().equals(point.transport())
                && one.connections() == 1 && one.failure() == null && one.size() == point.size()).findFirst()
                .ifPresent(one -> {
                    final double value = point.percentilesMicros().get("p50");
                    final double base = one.percentilesMicros().get("p50");
                    ratios.add(new Results.Ratio(connectionsMetric(point.connections()), point.size(),
                        point.transport(), point.transport() + " 1 connection p50", value, base, ratio(value, base),
                        "us", true));
                });
        }
        ratios.addAll(rma(results));
        for (final Results.Throughput throughput : results.throughput) {
            if (throughput.streams() != 1) {
                continue;
            }
            results.memcpy.stream().filter(copy -> copy.size() == throughput.size()).findFirst().ifPresent(copy ->
                ratios.add(new Results.Ratio(THROUGHPUT_VS_MEMCPY, throughput.size(), throughput.transport(),
                    "memcpy", throughput.messagesPerSecond(), copy.messagesPerSecond(),
                    ratio(throughput.messagesPerSecond(), copy.messagesPerSecond()), "msg/s", false)));
        }
        return ratios;
    }

    /** @return the rma workload's ratios: each one-in-flight read against the request-response beside it */
    private static List<Results.Ratio> rma(final Results results) {
        final List<Results.Ratio> ratios = new ArrayList<>();
        for (final Results.Rma read : results.rma) {
            if (!read.operation().equals("read") || read.inFlight() != 1) {
                continue;
            }
            results.rma.stream().filter(rr -> rr.operation().equals(RmaPhases.REQUEST_RESPONSE)
                && rr.transport().equals(read.transport()) && rr.size() == read.size()).findFirst().ifPresent(rr -> {
                    final double value = read.percentilesMicros().get("p50");
                    final double base = rr.percentilesMicros().get("p50");
                    ratios.add(new Results.Ratio(RMA_READ_VS_RR, read.size(), read.transport(),
                        read.transport() + " request-response p50", value, base, ratio(value, base), "us", true));
                    ratios.add(new Results.Ratio(RMA_READ_SERVER_CPU_VS_RR, read.size(), read.transport(),
                        read.transport() + " request-response server CPU/op", read.serverCpuNanosPerOperation(),
                        rr.serverCpuNanosPerOperation(), ratio(read.serverCpuNanosPerOperation(),
                        rr.serverCpuNanosPerOperation()), "ns", true));
                });
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
