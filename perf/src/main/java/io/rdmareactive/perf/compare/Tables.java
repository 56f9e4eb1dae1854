package io.rdmareactive.perf.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text tables the run prints, and the report repeats: each workload's figures with their ratios against Aeron
 * from the same run, and the closing ratio table (rdma-reactive shm raw and Flux against Aeron IPC and UDP).
 */
final class Tables {

    static final List<String> CLOSING_TRANSPORTS = List.of("rr-shm-raw", "rr-shm-flux", "rr-verbs-raw",
        "rr-verbs-flux");
    static final List<Integer> CLOSING_SIZES = List.of(32, 4096);

    private Tables() {
    }

    static String latency(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Ping-pong round trips (us, this machine; ratio = transport / Aeron, lower is better)\n");
        out.append(String.format(Locale.ROOT, "%-12s %-8s %-11s %9s %9s %9s %9s %9s %9s %9s  %s%n", "transport",
            "size", "mode", "p50", "p90", "p99", "p99.9", "p99.99", "max", "alloc B", "p50 vs ipc/udp"));
        for (final Results.Latency latency : results.latency) {
            final var p = latency.percentilesMicros();
            out.append(String.format(Locale.ROOT, "%-12s %-8s %-11s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.1f  %s%n",
                latency.transport(), Report.bytes(latency.size()), latency.mode(), p.get("p50"), p.get("p90"),
                p.get("p99"), p.get("p99.9"), p.get("p99.99"), p.get("max"), latency.allocatedBytesPerRoundTrip(),
                latencyRatios(results, latency)));
        }
        return out.toString();
    }

    private static String latencyRatios(final Results results, final Results.Latency latency) {
        final List<String> parts = new ArrayList<>();
        for (final String baseline : Ratios.BASELINES) {
            results.latency.stream().filter(l -> l.transport().equals(baseline) && l.size() == latency.size()
                && l.mode().equals(latency.mode())).findFirst().ifPresent(base -> parts.add(Ratios.format(
                    Ratios.ratio(latency.percentilesMicros().get("p50"), base.percentilesMicros().get("p50")))));
        }
        return String.join(" / ", parts);
    }

    static String throughput(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Throughput (this machine; ratio = transport / Aeron, higher is better)\n");
        out.append(String.format(Locale.ROOT, "%-12s %-8s %7s %13s %11s %10s %9s %6s  %s%n", "transport", "size",
            "streams", "msg/s", "MiB/s", "cpu ns/msg", "alloc B", "lost", "msg/s vs ipc/udp"));
        for (final Results.Throughput t : results.throughput) {
            final List<String> parts = new ArrayList<>();
            for (final String baseline : Ratios.BASELINES) {
                results.throughput.stream().filter(b -> b.transport().equals(baseline) && b.size() == t.size()
                    && b.streams() == t.streams()).findFirst().ifPresent(base -> parts.add(Ratios.format(
                        Ratios.ratio(t.messagesPerSecond(), base.messagesPerSecond()))));
            }
            out.append(String.format(Locale.ROOT, "%-12s %-8s %7d %13.0f %11.1f %10.0f %9.1f %6d  %s%n",
                t.transport(), Report.bytes(t.size()), t.streams(), t.messagesPerSecond(),
                t.bytesPerSecond() / (1 << 20), t.cpuNanosPerMessage(), t.allocatedBytesPerMessage(), t.lost(),
                String.join(" / ", parts)));
        }
        return out.toString();
    }

    static String backpressure(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Backpressure: producer against a throttled consumer (this machine)\n");
        out.append(String.format(Locale.ROOT, "%-12s %-8s %12s %12s %12s %10s %6s %9s %9s%n", "transport", "size",
            "consumer/s", "producer/s", "consumed/s", "sent", "lost", "peak heap", "peak RSS"));
        for (final Results.Backpressure b : results.backpressure) {
            out.append(String.format(Locale.ROOT, "%-12s %-8s %12.0f %12.0f %12.0f %10d %6d %7.0f M %7.0f M%n",
                b.transport(), Report.bytes(b.size()), b.consumerRatePerSecond(), b.producerRatePerSecond(),
                b.consumedRatePerSecond(), b.sent(), b.lost(), b.peakHeapBytes() / (double) (1 << 20),
                b.peakRssBytes() / (double) (1 << 20)));
        }
        return out.toString();
    }

    static String requestResponse(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Request-response: Connection.requestResponse, the server answers each request with its bytes "
            + "(round trips in us, this machine)\n");
        out.append(String.format(Locale.ROOT, "%-13s %-7s %9s %11s %9s %9s %9s %9s %9s %9s %8s %6s %6s%n",
            "transport", "size", "in flight", "calls/s", "p50", "p90", "p99", "max", "cpu us", "alloc B", "refused",
            "wrong", "failed"));
        for (final Results.RequestResponse rr : results.requestResponse) {
            final var p = rr.percentilesMicros();
            out.append(String.format(Locale.ROOT,
                "%-13s %-7s %9d %11.0f %9.2f %9.2f %9.2f %9.2f %9.1f %9.0f %8d %6d %6d%n", rr.transport(),
                Report.bytes(rr.size()), rr.inFlight(), rr.callsPerSecond(), p.get("p50"), p.get("p90"),
                p.get("p99"), p.get("max"), rr.cpuMicrosPerCall(), rr.allocatedBytesPerCall(), rr.refused(),
                rr.wrongAnswers(), rr.failedCalls()));
            if (rr.firstFailure() != null) {
                out.append("  first failed call: ").append(rr.firstFailure()).append('\n');
            }
        }
        return out.toString();
    }

    static String connections(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Connections: K clients in this JVM to one server, round-robin request-response, one call in "
            + "flight (this machine; threads and RSS of the whole JVM, both sides)\n");
        out.append(String.format(Locale.ROOT, "%-13s %6s %6s %8s %9s %9s %9s %8s %8s %8s %8s %8s  %s%n",
            "transport", "conns", "opened", "open s", "calls/s", "p50 us", "p99 us", "threads", "rdma-", "RSS MiB",
            "close s", "wrong", "status"));
        for (final Results.Connections c : results.connections) {
            final Results.Footprint at = c.open() != null ? c.open() : c.before();
            final boolean measured = c.failure() == null;
            out.append(String.format(Locale.ROOT, "%-13s %6d %6d %8.2f %9s %9s %9s %8d %8d %8.0f %8.2f %8d  %s%n",
                c.transport(), c.connections(), c.opened(), c.openSeconds(),
                measured ? String.format(Locale.ROOT, "%.0f", c.callsPerSecond()) : "-",
                measured ? String.format(Locale.ROOT, "%.2f", c.percentilesMicros().get("p50")) : "-",
                measured ? String.format(Locale.ROOT, "%.2f", c.percentilesMicros().get("p99")) : "-",
                at.threads(), at.libraryThreads(), at.rssBytes() / (double) (1 << 20), c.closeSeconds(),
                c.wrongAnswers() + c.failedCalls(), status(c)));
        }
        if (!results.connections.isEmpty()) {
            out.append("threads, rdma- (the library's threads) and RSS with the K connections open; before opening "
                + "and after closing in results.json\n");
        }
        for (final Results.Connections c : results.connections) {
            if (c.closeProblem() != null) {
                out.append("  closing ").append(c.connections()).append(": ").append(c.closeProblem())
                    .append(String.format(Locale.ROOT, "; library threads left: %d (%d before opening)%n",
                        c.afterClose().libraryThreads(), c.before().libraryThreads()));
            }
        }
        return out.toString();
    }

    private static String status(final Results.Connections c) {
        return (c.failure() == null ? "ok" : "FAILED: " + c.failure())
            + (c.closeProblem() != null ? " (closing: see below)" : "");
    }

    static String rma(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Remote memory (rma): one-sided operations through RemoteRegion and request-response calls beside "
            + "them, against a server in its own process (latency in us; CPU in ns per operation, each process's own; "
            + "this machine)\n");
        out.append(String.format(Locale.ROOT, "%-13s %-16s %-8s %9s %11s %9s %9s %9s %13s %13s %10s%n", "transport",
            "operation", "size", "in flight", "ops/s", "MB/s", "p50", "p99", "server CPU/op", "client CPU/op",
            "checked"));
        for (final Results.Rma r : results.rma) {
            final var p = r.percentilesMicros();
            out.append(String.format(Locale.ROOT, "%-13s %-16s %-8s %9d %11.0f %9.1f %9s %9s %13.0f %13.0f %10d%n",
                r.transport(), r.operation(), Report.bytes(r.size()), r.inFlight(), r.operationsPerSecond(),
                r.megabytesPerSecond(), p.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", p.get("p50")),
                p.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", p.get("p99")), r.serverCpuNanosPerOperation(),
                r.clientCpuNanosPerOperation(), r.checked()));
        }
        return out.toString();
    }

    static String incast(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Incast: N senders to one receiver as fast as back-pressure lets them, 32-byte probes beside them "
            + "(probe latency from when each was due to its arrival, us; this machine)\n");
        out.append(String.format(Locale.ROOT, "%-12s %7s %-7s %11s %9s %6s %9s %9s %9s %7s %6s  %s%n", "transport",
            "senders", "size", "msg/s", "MB/s", "Jain", "probe p50", "probe p99", "probe max", "probes", "lost",
            "shares %"));
        for (final Results.Incast i : results.incast) {
            final var p = i.probePercentilesMicros();
            out.append(String.format(Locale.ROOT, "%-12s %7d %-7s %11.0f %9.1f %6.3f %9.1f %9.1f %9.1f %7d %6d  %s%n",
                i.transport(), i.senders(), Report.bytes(i.size()), i.messagesPerSecond(), i.bytesPerSecond() / 1e6,
                i.jainIndex(), p.get("p50"), p.get("p99"), p.get("max"), i.probes(),
                i.lost() + i.outOfOrder() + (i.probesSent() - i.probesReceived()) + i.probesWrong(),
                String.join(" ", i.shares().stream().map(share -> String.format(Locale.ROOT, "%.1f", share * 100))
                    .toList())));
        }
        return out.toString();
    }

    static String allToAll(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("All-to-all: every party sends to every other, one sending thread per party taking its "
            + "destinations in turn (this machine)\n");
        out.append(String.format(Locale.ROOT, "%-12s %7s %-8s %11s %9s %12s %12s %8s %6s%n", "transport", "parties",
            "size", "msg/s", "MB/s", "pair min/s", "pair max/s", "max/min", "lost"));
        for (final Results.AllToAll a : results.allToAll) {
            out.append(String.format(Locale.ROOT, "%-12s %7d %-8s %11.0f %9.1f %12.0f %12.0f %8.2f %6d%n",
                a.transport(), a.parties(), Report.bytes(a.size()), a.messagesPerSecond(), a.bytesPerSecond() / 1e6,
                a.pairMinPerSecond(), a.pairMaxPerSecond(), a.pairMaxPerSecond() / a.pairMinPerSecond(),
                a.lost() + a.outOfOrder()));
        }
        return out.toString();
    }

    static String peerKill(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Peer-kill: peers in processes of their own, every one sending to every other; the last one "
            + "killed with SIGKILL (detection in ms from the kill; msg/s received from the other survivors)\n");
        out.append(String.format(Locale.ROOT, "%-12s %5s %6s %8s %10s %10s %10s %9s %6s %6s  %s%n", "transport", "peers",
            "killed", "survivor", "detect ms", "before/s", "after/s", "checked", "lost", "dup", "first report"));
        for (final Results.PeerKill run : results.peerKill) {
            for (final Results.Survivor s : run.survivors()) {
                out.append(String.format(Locale.ROOT, "%-12s %5d %6d %8d %10.1f %10.0f %10.0f %9d %6d %6d  %s%n",
                    run.transport(), run.peers(), run.killed(), s.peer(), s.detectedMillis(), s.beforePerSecond(),
                    s.afterPerSecond(), s.checked(), s.lost(), s.duplicated(), s.how()));
            }
            if (run.problem() != null) {
                out.append("  NOT TO BE TRUSTED: ").append(run.problem()).append('\n');
            }
        }
        return out.toString();
    }

    static String allReduce(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Ring all-reduce of float vectors (sum), ranks as threads of this JVM, nccl-tests' figures: time "
            + "of one all-reduce (us, slowest rank), algbw = size / time, busbw = algbw x 2(n-1)/n (GB/s; this "
            + "machine); a row with a wrong element is a failure\n");
        out.append(String.format(Locale.ROOT, "%-12s %5s %-8s %6s %12s %9s %9s %7s%n", "transport", "ranks", "size",
            "iters", "time us", "algbw", "busbw", "#wrong"));
        for (final Results.AllReduce a : results.allReduce) {
            out.append(a.wrong() == 0
                ? String.format(Locale.ROOT, "%-12s %5d %-8s %6d %12.1f %9.3f %9.3f %7d%n", a.transport(), a.ranks(),
                    Report.bytes((int) a.bytes()), a.iterations(), a.micros(), a.algbwGBs(), a.busbwGBs(), a.wrong())
                : String.format(Locale.ROOT, "%-12s %5d %-8s %6d %12s %9s %9s %7d  FAILED%n", a.transport(),
                    a.ranks(), Report.bytes((int) a.bytes()), a.iterations(), "-", "-", "-", a.wrong()));
        }
        return out.toString();
    }

    static String memcpy(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("memcpy baseline: one thread, MemorySegment.copy from one native buffer to a ring of native "
            + "buffers (this machine)\n");
        out.append(String.format(Locale.ROOT, "%-13s %-8s %13s %11s %9s %9s  %s%n", "", "size", "msg/s", "MiB/s",
            "GiB/s", "ring MiB", "rdma-reactive msg/s / memcpy"));
        for (final Results.Memcpy copy : results.memcpy) {
            final List<String> parts = new ArrayList<>();
            for (final Results.Ratio ratio : Ratios.further(results)) {
                if (ratio.metric().equals(Ratios.THROUGHPUT_VS_MEMCPY) && ratio.size() == copy.size()
                    && ratio.transport().startsWith("rr-")) {
                    parts.add(ratio.transport() + " " + Ratios.format(ratio.ratio()));
                }
            }
            out.append(String.format(Locale.ROOT, "%-13s %-8s %13.0f %11.1f %9.2f %9.1f  %s%n", "memcpy",
                Report.bytes(copy.size()), copy.messagesPerSecond(), copy.bytesPerSecond() / (1 << 20),
                copy.gibPerSecond(), copy.ringBytes() / (double) (1 << 20), String.join(", ", parts)));
        }
        return out.toString();
    }

    /** The closing table's last part: the further ratios, and the library's threads at each connection count. */
    static String further(final Results results) {
        final List<String> rows = new ArrayList<>();
        for (final Results.Ratio r : results.ratios) {
            final String what;
            if (r.metric().equals(Ratios.RR_VS_PING_PONG)) {
                what = r.transport() + " request-response RTT p50 / ping-pong p50, " + Report.bytes(r.size());
            } else if (r.metric().equals(Ratios.THROUGHPUT_VS_MEMCPY) && CLOSING_TRANSPORTS.contains(r.transport())) {
                what = r.transport() + " throughput / memcpy, " + Report.bytes(r.size());
            } else if (r.metric().equals(Ratios.RMA_READ_VS_RR)) {
                what = r.transport() + " rma read " + Report.bytes(r.size()) + " p50 / request-response "
                    + Report.bytes(r.size()) + " p50";
            } else if (r.metric().equals(Ratios.RMA_READ_SERVER_CPU_VS_RR)) {
                what = r.transport() + " rma read " + Report.bytes(r.size()) + " server CPU/op / request-response's";
            } else if (r.metric().startsWith("rtt-p50-") && r.metric().endsWith("-connections-vs-1")) {
                what = r.transport() + " " + r.metric().substring(8, r.metric().length() - 17)
                    + " connections RTT p50 / 1 connection p50";
            } else {
                continue;
            }
            rows.add(String.format(Locale.ROOT, "%-62s %8s %12s %12s", what, Ratios.format(r.ratio()),
                number(r.value()) + " " + r.unit(), number(r.baselineValue()) + " " + r.unit()));
        }
        for (final Results.Connections c : results.connections) {
            if (c.open() != null) {
                rows.add(String.format(Locale.ROOT, "%-62s %8s %12s %12s", c.transport() + " library threads at "
                    + c.connections() + " connection" + (c.connections() == 1 ? "" : "s")
                    + (c.failure() != null ? " (" + c.opened() + " opened)" : ""), "",
                    c.open().libraryThreads(), c.before().libraryThreads() + " before"));
            }
        }
        if (rows.isEmpty()) {
            return "";
        }
        final StringBuilder out = new StringBuilder();
        out.append("Further ratios, same run (round trips and CPU: lower is better; throughput: higher is better)\n");
        out.append(String.format(Locale.ROOT, "%-62s %8s %12s %12s%n", "", "ratio", "value", "baseline"));
        rows.forEach(row -> out.append(row).append('\n'));
        return out.toString();
    }

    private static String number(final double value) {
        return Math.abs(value) >= 1000 ? String.format(Locale.ROOT, "%.0f", value)
            : String.format(Locale.ROOT, "%.2f", value);
    }

    /**
     * The closing note's table: rdma-reactive shm raw and Flux (and verbs, where measured) against Aeron IPC and UDP,
     * plus allocation; then the further ratios, where measured.
     */
    static String closing(final Results results) {
        final StringBuilder out = new StringBuilder();
        out.append("Ratio table: rdma-reactive / Aeron, same run (RTT closed loop: lower is better; throughput "
            + "one stream: higher is better)\n");
        out.append(String.format(Locale.ROOT, "%-12s %-7s | %-26s | %-26s%n", "", "", "vs aeron-ipc",
            "vs aeron-udp"));
        out.append(String.format(Locale.ROOT, "%-12s %-7s | %8s %8s %8s | %8s %8s %8s%n", "transport", "size",
            "RTT p50", "RTT p99", "msg/s", "RTT p50", "RTT p99", "msg/s"));
        for (final String transport : CLOSING_TRANSPORTS) {
            if (transport.startsWith("rr-verbs") && !results.transports.containsKey(transport)) {
                continue; // the shared-memory rows always show, the verbs rows where a device was measured
            }
            for (final int size : CLOSING_SIZES) {
                final List<String> cells = new ArrayList<>();
                for (final String baseline : Ratios.BASELINES) {
                    cells.add(cell(results, "rtt-p50", transport, baseline, size));
                    cells.add(cell(results, "rtt-p99", transport, baseline, size));
                    cells.add(cell(results, "throughput", transport, baseline, size));
                }
                out.append(String.format(Locale.ROOT, "%-12s %-7s | %8s %8s %8s | %8s %8s %8s%n", transport,
                    Report.bytes(size), cells.get(0), cells.get(1), cells.get(2), cells.get(3), cells.get(4),
                    cells.get(5)));
            }
        }
        out.append("Absolute figures (this machine): RTT p50 / p99 in us, throughput in msg/s, heap bytes allocated "
            + "per message (whole JVM: both peers and the transport)\n");
        out.append(String.format(Locale.ROOT, "%-12s %-7s %9s %9s %12s %12s %12s%n", "transport", "size", "RTT p50",
            "RTT p99", "msg/s", "alloc/RTT", "alloc/msg"));
        for (final String transport : results.transports.keySet()) {
            for (final int size : CLOSING_SIZES) {
                final var latency = Ratios.latency(results, transport, size);
                final var throughput = Ratios.throughput(results, transport, size);
                if (latency.isEmpty() && throughput.isEmpty()) {
                    continue;
                }
                out.append(String.format(Locale.ROOT, "%-12s %-7s %9s %9s %12s %12s %12s%n", transport,
                    Report.bytes(size),
                    latency.map(l -> String.format(Locale.ROOT, "%.2f", l.percentilesMicros().get("p50"))).orElse("-"),
                    latency.map(l -> String.format(Locale.ROOT, "%.2f", l.percentilesMicros().get("p99"))).orElse("-"),
                    throughput.map(t -> String.format(Locale.ROOT, "%.0f", t.messagesPerSecond())).orElse("-"),
                    latency.map(l -> String.format(Locale.ROOT, "%.1f", l.allocatedBytesPerRoundTrip())).orElse("-"),
                    throughput.map(t -> String.format(Locale.ROOT, "%.1f", t.allocatedBytesPerMessage()))
                        .orElse("-")));
            }
        }
        out.append(further(results));
        return out.toString();
    }

    private static String cell(final Results results, final String metric, final String transport,
                               final String baseline, final int size) {
        return results.ratios.stream().filter(r -> r.metric().equals(metric) && r.transport().equals(transport)
            && r.baseline().equals(baseline) && r.size() == size).findFirst()
            .map(r -> Ratios.format(r.ratio())).orElse("-");
    }
}
