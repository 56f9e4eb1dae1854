package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.AeronTransport;
import io.rdmareactive.perf.compare.transport.NettyTcpTransport;
import io.rdmareactive.perf.compare.transport.RSocketTransport;
import io.rdmareactive.perf.compare.transport.RawSpiTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Transport;
import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.RdmaProviders;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run: sets up the transports, runs each workload over each of them (one progress bar per workload), and
 * writes the results, the plots and the report. Every transport's peers are threads of this JVM, but for the rma
 * workload's server, which runs in a JVM of its own.
 */
final class Comparison {

    private static final String SKIPPED = "skipped: ";

    private final Settings settings;
    private final PrintStream out;
    private final Results results = new Results();

    Comparison(final Settings settings, final PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** @return 0 when every requested measurement was made (skipped verbs transports aside), 1 otherwise */
    int run() throws Exception {
        Files.createDirectories(settings.output());
        results.environment.putAll(Environment.describe());
        results.settings.putAll(settings.asMap());
        out.println("rdma-reactive transport comparison: " + results.environment.get("cpuModel") + ", "
            + results.environment.get("cores") + " cores, " + results.environment.get("jdk"));
        out.println("idle strategy " + settings.idle() + " everywhere; both peers of each transport in this JVM (the "
            + "rma workload's server and the peer-kill workload's peers in their own); "
            + "absolute figures are this machine's");
        // Aeron's log buffers and the shared-memory provider's files belong in memory (tmpfs), as both default to
        final Path memory = Path.of("/dev/shm");
        final Path scratch = Files.isDirectory(memory) && Files.isWritable(memory)
            ? Files.createTempDirectory(memory, "rdma-reactive-perf-")
            : Files.createTempDirectory("rdma-reactive-perf-");
        results.settings.put("scratchDirectory", scratch + " (Aeron directories and shm files; deleted at the end)");
        final Map<String, Transport> transports = new LinkedHashMap<>();
        try {
            for (final String name : settings.transports()) {
                try {
                    final Transport transport = create(name, scratch);
                    if (transport != null) {
                        transports.put(name, transport);
                        results.transports.put(name, transport.setup());
                        out.println("  " + name + ": " + transport.setup());
                    }
                } catch (final Exception | LinkageError ex) {
                    results.failures.add(new Results.Failure(name, "all", "cannot set up: " + ex));
                    out.println("  " + name + ": cannot set up: " + ex);
                }
            }
            if (transports.keySet().stream().anyMatch(name -> name.startsWith("rr-verbs-"))) {
                // which devices served and which connected, beside the devices RdmaEnvironment lists
                results.environment.put("verbsDevices", settings.verbs().describe());
                out.println("  verbs devices: " + settings.verbs().describe());
            }
            if (settings.workloads().contains(Settings.PING_PONG)) {
                pingPong(transports);
                out.print(Tables.latency(results));
            }
            if (settings.workloads().contains(Settings.REQUEST_RESPONSE)) {
                requestResponse(calling(transports));
                out.print(Tables.requestResponse(results));
            }
            if (settings.workloads().contains(Settings.THROUGHPUT)) {
                throughput(transports);
                out.print(Tables.throughput(results));
            }
            if ((settings.workloads().contains(Settings.MEMCPY) || settings.workloads().contains(Settings.THROUGHPUT))
                && !settings.memcpySizes().isEmpty()) {
                memcpy(); // the copy baseline beside throughput
                out.print(Tables.memcpy(results));
            }
            if (settings.workloads().contains(Settings.BACKPRESSURE)) {
                backpressure(transports);
                out.print(Tables.backpressure(results));
            }
            if (settings.workloads().contains(Settings.CONNECTIONS)) {
                connections(reactive(transports, Settings.CONNECTIONS));
                out.print(Tables.connections(results));
            }
            if (settings.workloads().contains(Settings.RMA)) {
                rma(transports);
                out.print(Tables.rma(results));
            }
            if (settings.workloads().contains(Settings.INCAST)) {
                incast(transports);
                out.print(Tables.incast(results));
            }
            if (settings.workloads().contains(Settings.ALL_TO_ALL)) {
                allToAll(transports);
                out.print(Tables.allToAll(results));
            }
            if (settings.workloads().contains(Settings.PEER_KILL)) {
                peerKill(transports);
                out.print(Tables.peerKill(results));
            }
            if (settings.workloads().contains(Settings.ALL_REDUCE)) {
                allReduce(transports);
                out.print(Tables.allReduce(results));
            }
        } finally {
            for (final Transport transport : transports.values()) {
                try {
                    transport.close();
                } catch (final RuntimeException ex) {
                    out.println(transport.name() + ": closing failed: " + ex);
                }
            }
            delete(scratch);
        }
        results.ratios.addAll(Ratios.compute(results));
        ResultsJson.write(results, settings.output().resolve("results.json"));
        Map<String, String> charts;
        try {
            charts = Charts.draw(results, settings.output());
        } catch (final Exception | LinkageError ex) { // e.g. a headless machine without fonts
            charts = Map.of();
            results.failures.add(new Results.Failure("report", "plots", "could not be drawn: " + ex));
            ResultsJson.write(results, settings.output().resolve("results.json"));
        }
        Report.write(results, charts, settings.output().resolve("report.html"));
        for (final Results.Failure failure : results.failures) {
            out.println("not measured: " + failure.transport() + " " + failure.workload() + ": " + failure.reason());
        }
        out.print(Tables.closing(results));
        out.println(settings.output());
        // a machine without fonts cannot draw the plots: every figure is still in results.json and report.html
        return results.failures.stream().allMatch(f -> f.reason().startsWith(SKIPPED) || f.transport().equals("report"))
            ? 0 : 1;
    }

    private Transport create(final String name, final Path scratch) {
        return switch (name) {
            case "aeron-ipc" -> new AeronTransport(false, settings.idle(), scratch);
            case "aeron-udp" -> new AeronTransport(true, settings.idle(), scratch);
            case "rr-shm-raw" -> new RawSpiTransport("shm", settings.idle(), scratch.resolve("shm"), null);
            case "rr-shm-flux" -> new ReactiveTransport("shm", settings.idle(), scratch.resolve("shm"), null);
            case "netty-tcp" -> new NettyTcpTransport();
            case "rsocket-tcp" -> new RSocketTransport();
            case "rr-verbs-raw", "rr-verbs-flux" -> verbs(name);
            default -> throw new IllegalArgumentException("unknown transport " + name);
        };
    }

    private Transport verbs(final String name) {
        final Availability verbs = RdmaProviders.named("verbs").availability();
        if (!verbs.available()) {
            results.failures.add(new Results.Failure(name, "all", SKIPPED + "no usable RDMA device: "
                + verbs.reason()));
            return null;
        }
        if (settings.verbs() == null) {
            results.failures.add(new Results.Failure(name, "all", SKIPPED + "a verbs device exists, but the run "
                + "needs --verbs-address=IP:PORT of its interface"));
            return null;
        }
        return name.endsWith("raw") ? new RawSpiTransport("verbs", settings.idle(), settings.verbs())
            : new ReactiveTransport("verbs", settings.idle(), settings.verbs());
    }

    private long pointMillis() {
        return settings.warmUp().toMillis() + settings.duration().toMillis();
    }

    private void pingPong(final Map<String, Transport> transports) {
        final long point = settings.warmUp().toMillis() + settings.duration().toMillis()
            * (settings.fixedRate() > 0 ? 2 : 1);
        try (Progress progress = new Progress("ping-pong", point * transports.size() * settings.pingSizes().size())) {
            for (final Transport transport : transports.values()) {
                for (final int size : settings.pingSizes()) {
                    final Progress.Point at = progress.point(transport.name() + " " + Report.bytes(size), point);
                    try {
                        results.latency.addAll(PingPongWorkload.run(transport, size, settings, at));
                    } catch (final Exception | Error ex) {
                        fail(transport, "ping-pong " + Report.bytes(size), ex);
                    }
                }
            }
        }
    }

    private void throughput(final Map<String, Transport> transports) {
        final List<int[]> points = new ArrayList<>();
        for (final int streams : settings.streams()) {
            for (final int size : streams == 1 ? settings.throughputSizes() : settings.multiStreamSizes()) {
                points.add(new int[] {size, streams});
            }
        }
        try (Progress progress = new Progress("throughput", pointMillis() * transports.size() * points.size())) {
            for (final Transport transport : transports.values()) {
                for (final int[] point : points) {
                    final Progress.Point at = progress.point(transport.name() + " " + Report.bytes(point[0]) + " x"
                        + point[1], pointMillis());
                    try {
                        results.throughput.add(ThroughputWorkload.run(transport, point[0], point[1], settings, at));
                    } catch (final Exception | Error ex) {
                        fail(transport, "throughput " + Report.bytes(point[0]) + " x" + point[1], ex);
                    }
                }
            }
        }
    }

    private void backpressure(final Map<String, Transport> transports) {
        try (Progress progress = new Progress("backpressure", pointMillis() * transports.size())) {
            for (final Transport transport : transports.values()) {
                final Progress.Point at = progress.point(transport.name(), pointMillis());
                try {
                    results.backpressure.add(BackpressureWorkload.run(transport, settings, at));
                } catch (final Exception | Error ex) {
                    fail(transport, "backpressure", ex);
                }
            }
        }
    }

    /** @return the transports of the run that are rdma-reactive's public API, the only ones {@code workload} uses */
    private List<ReactiveTransport> reactive(final Map<String, Transport> transports, final String workload) {
        final List<ReactiveTransport> reactive = new ArrayList<>();
        for (final Transport transport : transports.values()) {
            if (transport instanceof ReactiveTransport api) {
                reactive.add(api);
            }
        }
        if (reactive.isEmpty()) {
            results.failures.add(new Results.Failure("rr-shm-flux", workload, SKIPPED + workload + " uses "
                + "rdma-reactive's public API alone: add rr-shm-flux (or rr-verbs-flux) to --transports"));
        }
        return reactive;
    }

    /**
     * @return the transports of the run that offer request/response: rdma-reactive's public API and RSocket; the
     *     others (Aeron, TCP, the raw SPI) are skipped, saying why
     */
    private List<Transport> calling(final Map<String, Transport> transports) {
        final List<Transport> calling = new ArrayList<>();
        for (final Transport transport : transports.values()) {
            if (transport instanceof ReactiveTransport || transport instanceof RSocketTransport) {
                calling.add(transport);
            }
        }
        if (calling.isEmpty()) {
            results.failures.add(new Results.Failure("rr-shm-flux", Settings.REQUEST_RESPONSE, SKIPPED
                + "request-response needs a transport with request/response: add rr-shm-flux, rr-verbs-flux or "
                + "rsocket-tcp to --transports"));
        }
        return calling;
    }

    private void requestResponse(final List<Transport> transports) {
        final long point = 2 * pointMillis();
        try (Progress progress = new Progress("request-response", point * transports.size()
            * settings.rrSizes().size())) {
            for (final Transport transport : transports) {
                for (final int size : settings.rrSizes()) {
                    final Progress.Point at = progress.point(transport.name() + " " + Report.bytes(size), point);
                    try {
                        results.requestResponse.addAll(transport instanceof RSocketTransport rsocket
                            ? RequestResponseWorkload.run(rsocket, size, settings, at)
                            : RequestResponseWorkload.run((ReactiveTransport) transport, size, settings, at));
                    } catch (final Exception | Error ex) {
                        fail(transport, "request-response " + Report.bytes(size), ex);
                    }
                }
            }
        }
    }

    private void memcpy() {
        try (Progress progress = new Progress("memcpy", pointMillis() * settings.memcpySizes().size())) {
            for (final int size : settings.memcpySizes()) {
                final Progress.Point at = progress.point(Report.bytes(size), pointMillis());
                try {
                    results.memcpy.add(MemcpyWorkload.run(size, settings, at));
                } catch (final Exception | Error ex) {
                    results.failures.add(new Results.Failure("memcpy", "memcpy " + Report.bytes(size),
                        String.valueOf(ex)));
                }
            }
        }
    }

    private void connections(final List<ReactiveTransport> transports) {
        try (Progress progress = new Progress("connections", pointMillis() * transports.size()
            * settings.connectionCounts().size())) {
            for (final ReactiveTransport transport : transports) {
                for (final int count : settings.connectionCounts()) {
                    final Progress.Point at = progress.point(transport.name() + " x" + count, pointMillis());
                    try {
                        final Results.Connections point = ConnectionsWorkload.run(transport, count, settings, at);
                        results.connections.add(point);
                        if (point.failure() != null) {
                            results.failures.add(new Results.Failure(transport.name(), "connections " + count,
                                point.failure()));
                        }
                    } catch (final Exception | Error ex) {
                        fail(transport, "connections " + count, ex);
                    }
                }
            }
        }
    }

    /**
     * The rma workload on each transport of rdma-reactive's public API; the others are skipped, saying why: Aeron and
     * TCP have no one-sided access, and the raw transports drive the SPI, not {@code RemoteRegion}.
     */
    private void rma(final Map<String, Transport> transports) {
        final List<ReactiveTransport> reactive = new ArrayList<>();
        for (final Transport transport : transports.values()) {
            if (transport instanceof ReactiveTransport api) {
                reactive.add(api);
            } else {
                results.failures.add(new Results.Failure(transport.name(), Settings.RMA, SKIPPED
                    + (transport.name().startsWith("rr-") ? "rma measures one-sided operations through the public "
                    + "API (RemoteRegion); " + transport.name().replace("-raw", "-flux") + " runs them over the same "
                    + "provider" : transport.name() + " has no one-sided remote memory access")));
            }
        }
        final long phase = RmaPhases.plannedMillis(settings);
        try (Progress progress = new Progress("rma", phase * reactive.size() * RmaWorkload.phases(settings))) {
            for (final ReactiveTransport transport : reactive) {
                try {
                    RmaWorkload.run(transport, settings, progress, results.rma, results.failures);
                } catch (final Exception | Error ex) {
                    fail(transport, Settings.RMA, ex);
                }
            }
        }
    }

    /**
     * Incast on every transport but the raw ones: their consumer is handed each slot whole at the session's one
     * message length, so the 32-byte probes could not be told from the bulk messages' length.
     */
    private void incast(final Map<String, Transport> transports) {
        final List<Transport> fit = new ArrayList<>();
        for (final Transport transport : transports.values()) {
            if (transport instanceof RawSpiTransport) {
                results.failures.add(new Results.Failure(transport.name(), Settings.INCAST, SKIPPED + "the raw "
                    + "transport has one message length per session (its consumer sees whole slots), and incast's "
                    + "probes are shorter than its bulk messages; " + transport.name().replace("-raw", "-flux")
                    + " runs incast over the same provider"));
            } else {
                fit.add(transport);
            }
        }
        final List<Integer> counts = settings.traffic().incastSenders();
        try (Progress progress = new Progress(Settings.INCAST, pointMillis() * fit.size() * counts.size())) {
            for (final Transport transport : fit) {
                for (final int senders : counts) {
                    final Progress.Point at = progress.point(transport.name() + " x" + senders, pointMillis());
                    try {
                        results.incast.add(IncastWorkload.run(transport, senders, settings, at));
                    } catch (final Exception | Error ex) {
                        fail(transport, Settings.INCAST + " " + senders, ex);
                    }
                }
            }
        }
    }

    private void allToAll(final Map<String, Transport> transports) {
        final List<Integer> sizes = settings.traffic().allToAllSizes();
        final int parties = settings.traffic().allToAllParties();
        try (Progress progress = new Progress(Settings.ALL_TO_ALL, pointMillis() * transports.size()
            * sizes.size())) {
            for (final Transport transport : transports.values()) {
                for (final int size : sizes) {
                    final Progress.Point at = progress.point(transport.name() + " " + Report.bytes(size),
                        pointMillis());
                    try {
                        results.allToAll.add(AllToAllWorkload.run(transport, parties, size, settings, at));
                    } catch (final Exception | Error ex) {
                        fail(transport, Settings.ALL_TO_ALL + " " + Report.bytes(size), ex);
                    }
                }
            }
        }
    }

    /**
     * Peer-kill over rdma-reactive's public API, Aeron and TCP, whose peers can be processes of their own; the raw
     * transports are skipped, saying why.
     */
    private void peerKill(final Map<String, Transport> transports) {
        final List<Transport> fit = new ArrayList<>();
        for (final Transport transport : transports.values()) {
            if (PeerKillWorkload.fits(transport)) {
                fit.add(transport);
            } else {
                results.failures.add(new Results.Failure(transport.name(), Settings.PEER_KILL, SKIPPED
                    + "the raw SPI transport has no failure reporting of its own (it is the layer under the API); "
                    + transport.name().replace("-raw", "-flux") + " runs peer-kill over the same provider"));
            }
        }
        final long point = 2 * pointMillis() + settings.duration().toMillis();
        try (Progress progress = new Progress(Settings.PEER_KILL, point * fit.size())) {
            for (final Transport transport : fit) {
                final Progress.Point at = progress.point(transport.name(), point);
                try {
                    final Results.PeerKill run = PeerKillWorkload.run(transport, settings, at);
                    results.peerKill.add(run);
                    if (run.problem() != null) {
                        results.failures.add(new Results.Failure(transport.name(), Settings.PEER_KILL,
                            run.problem()));
                    }
                } catch (final Exception | Error ex) {
                    fail(transport, Settings.PEER_KILL, ex);
                }
            }
        }
    }

    /**
     * The ring all-reduce over every transport with a ring link (Aeron, TCP, rdma-reactive's public API over shm and
     * verbs); the others are skipped, saying why. A size with a wrong element is a failure, not a figure.
     */
    private void allReduce(final Map<String, Transport> transports) {
        final List<Transport> fit = new ArrayList<>();
        for (final Transport transport : transports.values()) {
            if (AllReduceWorkload.fits(transport)) {
                fit.add(transport);
            } else {
                results.failures.add(new Results.Failure(transport.name(), Settings.ALL_REDUCE, SKIPPED
                    + "the all-reduce has ring links for " + String.join(", ", AllReduceWorkload.TRANSPORTS)
                    + " only"));
            }
        }
        final long point = 1000L * settings.traffic().allReduceSizes().size();
        try (Progress progress = new Progress(Settings.ALL_REDUCE, point * fit.size())) {
            for (final Transport transport : fit) {
                final Progress.Point at = progress.point(transport.name() + " x"
                    + settings.traffic().allReduceRanks(), point);
                try {
                    for (final Results.AllReduce row : AllReduceWorkload.run(transport, settings, at)) {
                        results.allReduce.add(row);
                        if (row.wrong() != 0) {
                            results.failures.add(new Results.Failure(transport.name(), Settings.ALL_REDUCE + " "
                                + Report.bytes((int) row.bytes()), row.wrong() + " elements differed from the sum"));
                        }
                    }
                } catch (final Exception | Error ex) {
                    fail(transport, Settings.ALL_REDUCE, ex);
                }
            }
        }
    }

    private void fail(final Transport transport, final String workload, final Throwable cause) {
        results.failures.add(new Results.Failure(transport.name(), workload, String.valueOf(cause)));
    }

    private static void delete(final Path folder) {
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                    throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path dir, final IOException failure)
                    throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (final IOException ex) {
            // a leftover scratch folder in the temporary directory is harmless
        }
    }
}
