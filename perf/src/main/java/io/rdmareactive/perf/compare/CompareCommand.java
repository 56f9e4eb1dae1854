package io.rdmareactive.perf.compare;

import io.rdmareactive.internal.driver.Durations;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.VerbsNodes;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code compare}: measures rdma-reactive (shared memory, raw SPI and Flux API; verbs where a device exists) side by
 * side with Aeron IPC, Aeron UDP and Reactor Netty TCP in one run, and writes results.json and report.html. See
 * docs/perf.md.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Compares rdma-reactive with Aeron and Reactor Netty TCP in one run: ping-pong round trips, "
        + "throughput, backpressure; and, for rdma-reactive's Flux API alone, request-response and many "
        + "connections, with a memcpy baseline beside throughput; a ring all-reduce; on request, one-sided remote "
        + "memory access (rma). "
        + "Writes results.json and report.html; the last "
        + "line printed is their folder."})
public final class CompareCommand implements Callable<Integer> {

    static final List<String> ALL_TRANSPORTS = List.of("aeron-ipc", "aeron-udp", "rr-shm-raw", "rr-shm-flux",
        "netty-tcp", "rsocket-tcp", "rr-verbs-raw", "rr-verbs-flux");

    @Option(names = {"-t", "--transports"}, split = ",", paramLabel = "NAME",
        description = "Transports, in order (default: ${DEFAULT-VALUE}; the verbs ones are skipped, saying why, "
            + "where no RDMA device is usable)",
        defaultValue = "aeron-ipc,aeron-udp,rr-shm-raw,rr-shm-flux,netty-tcp,rsocket-tcp,rr-verbs-raw,rr-verbs-flux")
    List<String> transports;

    @Option(names = {"-w", "--workloads"}, split = ",", paramLabel = "NAME",
        description = "ping-pong, throughput, backpressure, request-response, connections, memcpy, rma, incast, "
            + "all-to-all, peer-kill, all-reduce (default: ${DEFAULT-VALUE}; throughput brings its memcpy baseline "
            + "at its sizes of 64 KiB and up; all-reduce, the samples' ring all-reduce, adds about 15 s on a 2-core "
            + "machine; rma, one-sided reads, writes and atomics against a server process, and the congestion and "
            + "failure workloads incast, all-to-all and peer-kill only when named)",
        defaultValue = "ping-pong,throughput,backpressure,request-response,connections,all-reduce")
    List<String> workloads;

    @Option(names = "--ping-sizes", split = ",", paramLabel = "BYTES",
        description = "Ping-pong message sizes (default: ${DEFAULT-VALUE})", defaultValue = "32,256,4096,65536")
    List<Integer> pingSizes;

    @Option(names = {"-s", "--sizes"}, split = ",", paramLabel = "BYTES",
        description = "Throughput message sizes (default: ${DEFAULT-VALUE})",
        defaultValue = "32,256,4096,65536,1048576")
    List<Integer> sizes;

    @Option(names = "--streams", split = ",", paramLabel = "N",
        description = "Throughput stream counts (default: ${DEFAULT-VALUE})", defaultValue = "1,2")
    List<Integer> streams;

    @Option(names = "--multi-stream-sizes", split = ",", paramLabel = "BYTES",
        description = "Sizes measured with every stream count above 1 (default: ${DEFAULT-VALUE})",
        defaultValue = "32,4096")
    List<Integer> multiStreamSizes;

    @Option(names = "--warm-up", paramLabel = "TIME", converter = DurationConverter.class,
        description = "Warm-up per point, discarded, e.g. 500ms, 2s (default: ${DEFAULT-VALUE})", defaultValue = "1s")
    Duration warmUp;

    @Option(names = {"-d", "--duration"}, paramLabel = "TIME", converter = DurationConverter.class,
        description = "Measured time per point (default: ${DEFAULT-VALUE})", defaultValue = "2s")
    Duration duration;

    @Option(names = "--idle", paramLabel = "STRATEGY", converter = IdleConverter.class,
        description = "Idle strategy of every polling thread, ours, Aeron's driver and rdma-reactive's event loops, "
            + "in rdma-reactive's forms: busy-spin, yielding, backoff[:maxSpins=N,maxYields=N,minPark=T,maxPark=T], "
            + "sleeping[:T], no-op (default: ${DEFAULT-VALUE}; busy-spin starves a 2-core machine)",
        defaultValue = "yielding")
    Idle idle;

    @Option(names = "--fixed-rate", paramLabel = "PER_SECOND",
        description = "Round trips per second of the fixed-rate ping-pong, below every transport's closed-loop "
            + "rate; 0 for none (default: ${DEFAULT-VALUE})",
        defaultValue = "1000")
    double fixedRate;

    @Option(names = "--consumer-rate", paramLabel = "PER_SECOND",
        description = "The throttled consumer's messages per second (default: ${DEFAULT-VALUE})",
        defaultValue = "20000")
    double consumerRate;

    @Option(names = "--backpressure-size", paramLabel = "BYTES",
        description = "Message size of the backpressure workload (default: ${DEFAULT-VALUE})", defaultValue = "1024")
    int backpressureSize;

    @Option(names = "--rr-sizes", split = ",", paramLabel = "BYTES",
        description = "Request-response message sizes (rr-*-flux transports only; default: ${DEFAULT-VALUE})",
        defaultValue = "32")
    List<Integer> rrSizes;

    @Option(names = "--rr-in-flight", paramLabel = "N",
        description = "Calls in flight of request-response's second mode (the first has one; default: "
            + "${DEFAULT-VALUE})", defaultValue = "256")
    int rrInFlight;

    @Option(names = "--connection-counts", split = ",", paramLabel = "K",
        description = "Connections the connections workload opens to one server, one point per count (default: "
            + "${DEFAULT-VALUE})", defaultValue = "1,100,1000")
    List<Integer> connectionCounts;

    @Option(names = "--connections-open-timeout", paramLabel = "TIME", converter = DurationConverter.class,
        description = "Deadline for opening one point's connections; past it the point is marked failed, what "
            + "opened is closed, and the run goes on; also bounds their closing (default: ${DEFAULT-VALUE})",
        defaultValue = "120s")
    Duration connectionsOpenTimeout;

    @Option(names = "--memcpy-sizes", split = ",", paramLabel = "BYTES",
        description = "Sizes of the memcpy baseline, measured with the throughput workload or as the memcpy "
            + "workload (default: the throughput sizes of 64 KiB and up; for the memcpy workload alone, if there are "
            + "none, 65536,1048576)")
    List<Integer> memcpySizes;

    @Option(names = "--rma-sizes", split = ",", paramLabel = "BYTES",
        description = "Sizes of the rma workload's one-sided reads and writes and of the request-response calls "
            + "beside them (multiples of 8; default: ${DEFAULT-VALUE})", defaultValue = "32,4096,65536,1048576")
    List<Integer> rmaSizes;

    @Option(names = "--rma-in-flight", paramLabel = "N",
        description = "One-sided operations in flight of the rma workload's pipelined mode, at most (also bounded by "
            + "the connection's maxOneSidedInFlight and by 64 MiB of read targets; default: ${DEFAULT-VALUE})",
        defaultValue = "64")
    int rmaInFlight;

    @Option(names = "--incast-senders", split = ",", paramLabel = "N",
        description = "Sender counts of the incast workload, 2 to 16, one point per count (default: "
            + "${DEFAULT-VALUE})", defaultValue = "2,4,8")
    List<Integer> incastSenders;

    @Option(names = "--incast-size", paramLabel = "BYTES",
        description = "The incast senders' message size (default: ${DEFAULT-VALUE})", defaultValue = "4096")
    int incastSize;

    @Option(names = "--incast-probe-rate", paramLabel = "PER_SECOND",
        description = "32-byte probes per second beside the incast traffic (default: ${DEFAULT-VALUE})",
        defaultValue = "1000")
    double incastProbeRate;

    @Option(names = "--all-to-all-parties", paramLabel = "N",
        description = "Parties of the all-to-all workload, 2 to 8 (default: ${DEFAULT-VALUE})", defaultValue = "3")
    int allToAllParties;

    @Option(names = "--all-to-all-sizes", split = ",", paramLabel = "BYTES",
        description = "Message sizes of the all-to-all workload, one point per size (default: ${DEFAULT-VALUE})",
        defaultValue = "32,4096,65536,1048576")
    List<Integer> allToAllSizes;

    @Option(names = "--peer-kill-peers", paramLabel = "N",
        description = "Peer processes of the peer-kill workload, 3 to 8 (default: ${DEFAULT-VALUE})",
        defaultValue = "3")
    int peerKillPeers;

    @Option(names = "--peer-kill-size", paramLabel = "BYTES",
        description = "Message size of the peer-kill workload (default: ${DEFAULT-VALUE})", defaultValue = "256")
    int peerKillSize;

    @Option(names = "--peer-kill-wait", paramLabel = "TIME", converter = DurationConverter.class,
        description = "How long the peer-kill workload waits for every survivor to report the failure (default: "
            + "${DEFAULT-VALUE})", defaultValue = "30s")
    Duration peerKillWait;

    @Option(names = "--allreduce-ranks", paramLabel = "N",
        description = "Ranks of the all-reduce ring, 2 to 8, each a thread of this JVM (default: ${DEFAULT-VALUE})",
        defaultValue = "4")
    int allReduceRanks;

    @Option(names = "--allreduce-sizes", split = ",", paramLabel = "BYTES",
        description = "Vector sizes of the all-reduce, multiples of 4 from 4 bytes to 64 MiB, one point per size "
            + "(default: ${DEFAULT-VALUE})", defaultValue = "8,65536,1048576,16777216")
    List<Integer> allReduceSizes;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
        description = "Folder for results.json, report.html and the plots (default: perf/target/compare/<time> "
            + "under the current directory)")
    Path output;

    @Option(names = "--cpus", paramLabel = "LIST",
        description = "Pin the whole JVM to these CPUs (taskset list, e.g. 0-1), with taskset -a -p; no per-thread "
            + "pinning")
    String cpus;

    @Option(names = "--verbs-address", paramLabel = "IP:PORT",
        description = "Where the verbs transports' server listens (an address of the RDMA interface; each session "
            + "takes the next port)")
    String verbsAddress;

    @Option(names = "--verbs-server-device", paramLabel = "NAME",
        description = "The RDMA device of every server (listening side) of the verbs transports, the one owning "
            + "--verbs-address's IP: node A of two (with --verbs-client-device; default: one device for both sides, "
            + "-Drdma.verbs.device's, else the first active one)")
    String verbsServerDevice;

    @Option(names = "--verbs-client-device", paramLabel = "NAME",
        description = "The RDMA device of every connecting side: node B (with --verbs-server-device)")
    String verbsClientDevice;

    @Option(names = "--verbs-client-address", paramLabel = "IP",
        description = "Node B's IP, on --verbs-client-device: where the workloads whose connecting sides listen too "
            + "(all-reduce ranks, peer-kill peers) put every other one, so that the two nodes alternate (default: "
            + "every listener on node A)")
    String verbsClientAddress;

    private final PrintStream out;

    /**
     * @param out where the progress and the tables go; {@code rdma-reactive perf} (the command-line tool) runs the
     *            comparison as its subcommand through this constructor
     */
    public CompareCommand(final PrintStream out) {
        this.out = out;
    }

    public static void main(final String[] args) {
        System.setProperty("java.awt.headless", "true");
        final int status = new CommandLine(new CompareCommand(System.out)).execute(args);
        System.out.flush();
        System.exit(status);
    }

    @Override
    public Integer call() throws Exception {
        final String pinning = Pinning.apply(cpus);
        return new Comparison(settings(pinning), out).run();
    }

    /** @return the options, checked */
    Settings settings(final String pinning) {
        for (final String transport : transports) {
            if (!ALL_TRANSPORTS.contains(transport)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown transport '" + transport
                    + "': use " + String.join(", ", ALL_TRANSPORTS));
            }
        }
        for (final String workload : workloads) {
            if (!Settings.WORKLOADS.contains(workload)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown workload '" + workload
                    + "': use " + String.join(", ", Settings.WORKLOADS));
            }
        }
        final List<Integer> copySizes = memcpySizes != null ? memcpySizes
            : defaultMemcpySizes(sizes, workloads.contains(Settings.MEMCPY));
        for (final List<Integer> list : List.of(pingSizes, sizes, multiStreamSizes, List.of(backpressureSize),
            rrSizes, copySizes, rmaSizes, List.of(incastSize, peerKillSize), allToAllSizes)) {
            for (final int size : list) {
                if (size < Long.BYTES || size > 16 << 20) {
                    throw new CommandLine.ParameterException(new CommandLine(this), "message sizes are 8 bytes (the "
                        + "sequence number) to 16 MiB, not " + size);
                }
            }
        }
        if (streams.stream().anyMatch(n -> n < 1 || n > 64)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--streams are 1 to 64");
        }
        if (duration.isZero() || duration.isNegative() || warmUp.isNegative()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--duration must be positive and "
                + "--warm-up not negative");
        }
        if (rrInFlight < 1 || rrInFlight > 65536) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rr-in-flight is 1 to 65536");
        }
        if (rmaSizes.isEmpty() || rmaSizes.stream().anyMatch(size -> size % Long.BYTES != 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rma-sizes are multiples of 8 (their "
                + "bytes are checked a 64-bit word at a time)");
        }
        if (rmaInFlight < 1 || rmaInFlight > 65536) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rma-in-flight is 1 to 65536");
        }
        if (connectionCounts.isEmpty() || connectionCounts.stream().anyMatch(k -> k < 1 || k > 100_000)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--connection-counts are 1 to 100000");
        }
        if (connectionsOpenTimeout.isZero() || connectionsOpenTimeout.isNegative()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--connections-open-timeout must be "
                + "positive");
        }
        if (incastSenders.isEmpty() || incastSenders.stream().anyMatch(n -> n < 2 || n > 16)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--incast-senders are 2 to 16");
        }
        if (incastSize < Probes.SIZE || !(incastProbeRate > 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--incast-size is " + Probes.SIZE
                + " bytes or more and --incast-probe-rate positive");
        }
        if (allToAllParties < 2 || allToAllParties > 8 || allToAllSizes.isEmpty()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--all-to-all-parties are 2 to 8, with "
                + "at least one size");
        }
        if (peerKillSize < 16 || peerKillSize % Long.BYTES != 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--peer-kill-size is a multiple of 8, "
                + "16 or more (sequence number and sender)");
        }
        if (peerKillPeers < 3 || peerKillPeers > 8 || peerKillWait.isNegative() || peerKillWait.isZero()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--peer-kill-peers are 3 to 8 (two "
                + "survivors at least) and --peer-kill-wait positive");
        }
        if (allReduceRanks < 2 || allReduceRanks > 8 || allReduceSizes.isEmpty() || allReduceSizes.stream()
            .anyMatch(size -> size < Float.BYTES || size > 64 << 20 || size % Float.BYTES != 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--allreduce-ranks are 2 to 8 and "
                + "--allreduce-sizes multiples of 4 (floats) from 4 bytes to 64 MiB");
        }
        if (consumerRate <= 0 || fixedRate < 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--consumer-rate must be positive and "
                + "--fixed-rate not negative");
        }
        final VerbsNodes verbs = verbs();
        final Path folder = output != null ? output : (Files.isDirectory(Path.of("perf"))
            ? Path.of("perf", "target", "compare") : Path.of("target", "compare"))
            .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        return new Settings(List.copyOf(new LinkedHashSet<>(transports)), new LinkedHashSet<>(workloads),
            List.copyOf(pingSizes), List.copyOf(sizes), List.copyOf(streams), List.copyOf(multiStreamSizes), warmUp,
            duration, idle, fixedRate, consumerRate, backpressureSize, folder.toAbsolutePath(), verbs, pinning, List.copyOf(rrSizes), rrInFlight, List.copyOf(new LinkedHashSet<>(connectionCounts)),
            connectionsOpenTimeout, List.copyOf(copySizes), List.copyOf(new LinkedHashSet<>(rmaSizes)), rmaInFlight,
            new Traffic(List.copyOf(new LinkedHashSet<>(incastSenders)), incastSize, incastProbeRate, allToAllParties,
                List.copyOf(new LinkedHashSet<>(allToAllSizes)), peerKillPeers, peerKillSize, peerKillWait,
                allReduceRanks, List.copyOf(new LinkedHashSet<>(allReduceSizes))));
    }

    /**
     * @return the verbs transports' addresses and devices, or null without {@code --verbs-address}
     * @throws CommandLine.ParameterException if the devices are not named together, node B's address comes without
     *     them, or an address is malformed
     */
    private VerbsNodes verbs() {
        final CommandLine line = new CommandLine(this);
        if ((verbsServerDevice == null) != (verbsClientDevice == null)) {
            throw new CommandLine.ParameterException(line, "--verbs-server-device and --verbs-client-device are "
                + "given together (node A's device, where servers listen, and node B's, where clients connect from), "
                + "or neither (one device for both)");
        }
        if (verbsClientAddress != null && verbsServerDevice == null) {
            throw new CommandLine.ParameterException(line, "--verbs-client-address is node B's IP, on "
                + "--verbs-client-device: give it with --verbs-server-device and --verbs-client-device");
        }
        if (verbsAddress == null) {
            if (verbsServerDevice != null) {
                throw new CommandLine.ParameterException(line, "--verbs-server-device and --verbs-client-device "
                    + "need --verbs-address=IP:PORT, the server device's IP and the first port");
            }
            return null;
        }
        final int colon = verbsAddress.lastIndexOf(':');
        if (colon <= 0 || !verbsAddress.substring(colon + 1).matches("\\d{1,5}")
            || Integer.parseInt(verbsAddress.substring(colon + 1)) > 65535) {
            throw new CommandLine.ParameterException(line, "--verbs-address is IP:PORT (e.g. 10.77.0.1:7490), not '"
                + verbsAddress + "'");
        }
        for (final String device : new String[] {verbsServerDevice, verbsClientDevice}) {
            if (device != null && device.isBlank()) {
                throw new CommandLine.ParameterException(line, "a device name is not blank");
            }
        }
        if (verbsClientAddress != null && (verbsClientAddress.isBlank() || verbsClientAddress.contains(":"))) {
            throw new CommandLine.ParameterException(line, "--verbs-client-address is an IP without a port (the "
                + "ports are --verbs-address's), not '" + verbsClientAddress + "'");
        }
        if (verbsClientAddress != null && verbsClientAddress.equals(verbsAddress.substring(0, colon))) {
            throw new CommandLine.ParameterException(line, "--verbs-client-address is node B's IP, not "
                + "--verbs-address's (node A's)");
        }
        return new VerbsNodes(verbsAddress, verbsServerDevice, verbsClientDevice, verbsClientAddress);
    }

    /**
     * @param asked whether the memcpy workload was asked for by name (else it comes with throughput)
     * @return the throughput sizes of 64 KiB and up; if there are none, 64 KiB and 1 MiB when asked, else none
     */
    static List<Integer> defaultMemcpySizes(final List<Integer> throughputSizes, final boolean asked) {
        final List<Integer> large = throughputSizes.stream().filter(size -> size >= 64 << 10).distinct().toList();
        return large.isEmpty() && asked ? List.of(64 << 10, 1 << 20) : large;
    }

    /** Reads a time as every rdma-reactive setting does: {@link Durations} (500ms, 1.5s, 2m, PT2S). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(final String value) {
            try {
                return Durations.parse(value);
            } catch (final IllegalArgumentException ex) {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /** Reads an idle strategy as rdma-reactive does ({@link Idle#parse}). */
    static final class IdleConverter implements CommandLine.ITypeConverter<Idle> {
        @Override
        public Idle convert(final String value) {
            try {
                return Idle.parse(value);
            } catch (final IllegalArgumentException ex) {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }
}
