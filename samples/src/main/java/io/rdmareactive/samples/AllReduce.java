package io.rdmareactive.samples;

import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaDefaults;
import io.rdmareactive.RdmaRuntime;
import io.rdmareactive.RdmaServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A ring all-reduce of float vectors between processes, measured as nccl-tests' all_reduce_perf measures NCCL's:
 * {@code --processes} ranks (this process is rank 0 and starts the others as child JVMs) each hold a vector whose
 * elements are small integers made from the rank and the index, and sum them element by element so that every rank
 * ends with the sum ({@link RingAllReduce}: reduce-scatter, then all-gather, each chunk pipelined in slices). Each
 * rank sends to its right neighbour on an rdma-reactive connection and receives from its left one
 * ({@link RdmaRingLink}). For each size from {@code --min-bytes} to {@code --max-bytes} rank 0 prints a row of
 * nccl-tests' table: time (the greatest over the ranks of each one's average), algbw, busbw, and the elements that
 * differed from the sum each rank computed itself ({@link AllReduceBench}).
 *
 * <pre>
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=all-reduce
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=all-reduce -Dsample.args="--processes=8 --max-bytes=256M"
 * </pre>
 *
 * <p>On RDMA hardware, {@code --provider=verbs --addresses=IP:PORT} (an address of the RDMA interface; the ranks
 * listen at PORT, PORT+1, ...), or one {@code IP:PORT} per rank, comma-separated. {@code --devices=D0,D1} gives the
 * ranks their devices in turn (rank r the {@code r % n}th), each rank then running on a runtime of its own on that
 * device ({@code RdmaRuntime.Builder.device}): on one host with two adapters, or the Soft-RoCE guest's two nodes,
 * the ring crosses between them at every hop (a rank connects from its own device, so the route to its right
 * neighbour must leave through it: with two nodes, give an even number of ranks):
 * <pre>
 *   ... -Dsample.args="--provider=verbs --processes=4 --addresses=10.77.0.1:7600,10.77.0.2:7601,10.77.0.1:7602,10.77.0.2:7603 --devices=rxe-a,rxe-b"
 * </pre>
 * Across hosts, {@code --start-ranks=false} makes rank 0 start no one: run this class on each host with
 * {@code --role=rank --rank=N} and the same options (the same {@code --addresses} list everywhere).
 *
 * <p>It exits 0 only when every element on every rank was right. A rank other than 0 is this class with
 * {@code --role=rank}; rank 0 starts them itself unless told not to.
 */
public final class AllReduce {

    static final String USAGE = "use --processes=2..8 --min-bytes=N --max-bytes=N (K, M, G allowed) "
        + "--step-factor=N --iterations=N --warmup-iterations=N --jit-warmup-iterations=N --slice-bytes=N "
        + "--idle=STRATEGY [--provider=shm|verbs] [--addresses=A[,A...]] [--devices=D[,D...]] [--start-ranks=false] "
        + "[--directory=PATH] [--liveness-seconds=N]";
    static final String PASSED = "all-reduce: every element on every rank was right";
    private static final Set<String> OPTIONS = Set.of("role", "rank", "addresses", "devices", "provider",
        "start-ranks", "processes", "min-bytes", "max-bytes", "step-factor", "iterations", "warmup-iterations",
        "jit-warmup-iterations", "slice-bytes", "idle", "directory", "liveness-seconds");
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String RANK_DONE = "rank done: ";

    private AllReduce() {
    }

    public static void main(final String[] args) throws Exception {
        int status;
        try {
            status = run(args, System.out);
        } catch (final IllegalArgumentException ex) {
            System.err.println("all-reduce: " + ex.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    /**
     * Runs rank 0 and starts the others, or (with {@code --role=rank}) runs one of the others.
     *
     * @return 0 when every element on every rank was right, 1 otherwise
     */
    static int run(final String[] args, final PrintStream out) throws Exception {
        final AllReduceSettings settings = AllReduceSettings.parse(SampleArguments.parse(args, OPTIONS, USAGE));
        return settings.role().equals("rank") ? rank(settings, out) : lead(settings, out);
    }

    private static int lead(final AllReduceSettings settings, final PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "# rdma-reactive all-reduce: %d processes in a ring over %s, float sum, slices of "
                + "%d B, %d warm-up and %d timed iterations per size (after %d of the smallest for the JIT), idle "
                + "strategy '%s'%n", settings.processes(), settings.describeRing(), settings.sliceBytes(),
            settings.warmups(), settings.iterations(), settings.jitWarmups(), settings.idle());
        SampleEnvironment.print(out, "# ");
        final List<ChildJvm> ranks = new ArrayList<>();
        final List<AllReduceRow> rows = new ArrayList<>();
        boolean passed;
        try {
            if (settings.startRanks()) {
                for (int rank = 1; rank < settings.processes(); rank++) {
                    ranks.add(ChildJvm.start(AllReduce.class, List.of("-Xmx" + settings.childHeapMegabytes() + "m"),
                        settings.rankArguments(rank), "  [rank " + rank + "] ", out));
                }
            } else {
                out.println("# ranks 1 to " + (settings.processes() - 1) + " are started by hand: this program with "
                    + "--role=rank --rank=N and the same options");
            }
            out.println(AllReduceRow.HEADER);
            final long wrongHere = runRank(settings, 0, row -> {
                rows.add(row);
                out.println(row.line());
            });
            passed = wrongHere == 0;
        } catch (final RuntimeException ex) { // a neighbour that never came, a link that failed or stalled
            out.println("rank 0 FAILED: " + ex + (ex.getCause() == null ? "" : ", caused by " + ex.getCause()));
            passed = false;
        }
        for (int rank = 1; rank <= ranks.size(); rank++) {
            final int status = ranks.get(rank - 1).awaitExit(PATIENCE);
            if (status != 0) {
                out.println("rank " + rank + " FAILED: exit status " + status);
                passed = false;
            }
        }
        for (final ChildJvm rank : ranks) {
            rank.close();
        }
        final long wrong = rows.stream().mapToLong(AllReduceRow::wrong).sum();
        passed &= wrong == 0 && !rows.isEmpty();
        out.printf(Locale.ROOT, "# Out of bounds values : %d %s%n", wrong, wrong == 0 ? "OK" : "WRONG");
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %.3f%n",
            rows.stream().mapToDouble(AllReduceRow::busbw).average().orElse(0));
        out.println(passed ? PASSED : "all-reduce: FAILED");
        return passed ? 0 : 1;
    }

    private static int rank(final AllReduceSettings settings, final PrintStream out) throws Exception {
        if (settings.startRanks()) { // started by rank 0: go away with it
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(3)));
        }
        final long[] sizes = {0};
        final long wrong = runRank(settings, settings.rank(), row -> sizes[0]++);
        out.printf(Locale.ROOT, "%s%d sizes, %d elements wrong%n", RANK_DONE, sizes[0], wrong);
        return wrong == 0 ? 0 : 1;
    }

    /** @return the elements this rank found wrong */
    private static long runRank(final AllReduceSettings settings, final int rank,
                                final Consumer<AllReduceRow> rows) throws InterruptedException {
        final String device = settings.device(rank);
        final RdmaRuntime runtime = device == null ? null : runtime(settings, device);
        try {
            RdmaServer serving = RdmaServer.create().provider(settings.provider()).idleStrategy(settings.idle());
            RdmaClient connecting = RdmaClient.create().provider(settings.provider()).idleStrategy(settings.idle());
            if (settings.livenessSeconds() > 0) {
                // a silent neighbour is tolerated this long (an emulated guest starved of CPU can stall for seconds)
                final Duration timeout = Duration.ofSeconds(settings.livenessSeconds());
                serving = serving.liveness(RdmaDefaults.KEEPALIVE, timeout);
                connecting = connecting.liveness(RdmaDefaults.KEEPALIVE, timeout);
            }
            if (runtime != null) {
                serving = serving.runOn(runtime);
                connecting = connecting.runOn(runtime);
            } else if (settings.directory() != null) {
                serving = serving.directory(settings.directory());
                connecting = connecting.directory(settings.directory());
            }
            try (RdmaRingLink link = RdmaRingLink.open(serving, connecting, settings.addresses(), rank,
                settings.sliceBytes(), PATIENCE)) {
                return new AllReduceBench(rank, settings.processes(), settings.sliceBytes() / Float.BYTES, link)
                    .run(settings.minBytes(), settings.maxBytes(), settings.stepFactor(), settings.jitWarmups(),
                        settings.warmups(), settings.iterations(), rows);
            }
        } finally {
            if (runtime != null) {
                runtime.dispose();
            }
        }
    }

    /** A runtime of this rank's own on the device {@code --devices} gives it: a node of its own on a shared host. */
    private static RdmaRuntime runtime(final AllReduceSettings settings, final String device) {
        final RdmaRuntime.Builder builder = RdmaRuntime.builder().provider(settings.provider()).device(device)
            .idleStrategy(settings.idle());
        if (settings.directory() != null) {
            builder.directory(settings.directory());
        }
        return builder.build();
    }

    /**
     * The options; a rank's are rank 0's, passed on.
     *
     * @param addresses one per rank: shared-memory names, or {@code IP:PORT} on verbs
     * @param devices   the devices the ranks use in turn (rank r the {@code r % length}th), or empty: the default one
     * @param livenessSeconds how long a silent neighbour is tolerated, or 0 for the library's liveness timeout
     */
    record AllReduceSettings(String role, int rank, String provider, String[] addresses, String[] devices,
                             boolean startRanks, int processes, long minBytes, long maxBytes, int stepFactor,
                             int iterations, int warmups, int jitWarmups, int sliceBytes, String idle,
                             Path directory, int livenessSeconds) {

        static AllReduceSettings parse(final SampleArguments arguments) {
            final String role = arguments.string("role", "lead");
            if (!role.equals("lead") && !role.equals("rank")) {
                throw new IllegalArgumentException("--role is lead or rank, not '" + role + "'");
            }
            final String provider = arguments.string("provider", "shm");
            if (!provider.equals("shm") && !provider.equals("verbs")) {
                throw new IllegalArgumentException("--provider is shm or verbs, not '" + provider + "'");
            }
            final int processes = arguments.integer("processes", 4, 2, 8);
            final long minBytes = bytes(arguments, "min-bytes", 8);
            final long maxBytes = bytes(arguments, "max-bytes", 64L << 20);
            if (minBytes % Float.BYTES != 0 || maxBytes < minBytes || maxBytes > 512L << 20) {
                throw new IllegalArgumentException("--min-bytes is a multiple of 4, --max-bytes at least that and at "
                    + "most 512M");
            }
            final int sliceBytes = (int) bytes(arguments, "slice-bytes", 256 << 10);
            if (sliceBytes % Float.BYTES != 0 || sliceBytes < 64 || sliceBytes > 4 << 20) {
                throw new IllegalArgumentException("--slice-bytes is a multiple of 4 from 64 to 4M");
            }
            final String startRanks = arguments.string("start-ranks", "true");
            if (!startRanks.equals("true") && !startRanks.equals("false")) {
                throw new IllegalArgumentException("--start-ranks is true or false, not '" + startRanks + "'");
            }
            final String directory = arguments.string("directory", null);
            final String devices = arguments.string("devices", "");
            return new AllReduceSettings(role, arguments.integer("rank", 0, 0, processes - 1), provider,
                addresses(arguments.string("addresses", null), provider, processes),
                devices.isEmpty() ? new String[0] : devices.split(","), startRanks.equals("true"), processes,
                minBytes, maxBytes, arguments.integer("step-factor", 2, 2, 1024),
                arguments.integer("iterations", 20, 1, 1_000_000),
                arguments.integer("warmup-iterations", 5, 0, 1_000_000),
                arguments.integer("jit-warmup-iterations", 1000, 0, 1_000_000), sliceBytes, arguments.idle("backoff"),
                directory == null ? null : Path.of(directory), arguments.integer("liveness-seconds", 0, 0, 3600));
        }

        /**
         * Every rank's address: as listed (one per rank), or made from one: on shm its name with {@code -RANK}
         * added, on verbs its {@code IP:PORT} with the rank added to the port. On shm the default is a name of this
         * process's own; verbs has no default (an address of the RDMA interface).
         */
        static String[] addresses(final String given, final String provider, final int processes) {
            final boolean verbs = provider.equals("verbs");
            if (given == null && verbs) {
                throw new IllegalArgumentException("--provider=verbs needs --addresses: IP:PORT of an RDMA interface "
                    + "(the ranks then listen at PORT, PORT+1, ...), or one IP:PORT per rank, comma-separated");
            }
            final String[] listed = (given == null ? "all-reduce-" + ProcessHandle.current().pid() : given).split(",");
            if (listed.length == processes) {
                return listed;
            }
            if (listed.length != 1) {
                throw new IllegalArgumentException("--addresses has one address, or one per rank (" + processes
                    + "), not " + listed.length);
            }
            final String[] addresses = new String[processes];
            for (int rank = 0; rank < processes; rank++) {
                addresses[rank] = verbs ? portPlus(listed[0], rank) : listed[0] + "-" + rank;
            }
            return addresses;
        }

        private static String portPlus(final String address, final int add) {
            final int colon = address.lastIndexOf(':');
            try {
                final int port = Integer.parseInt(address.substring(colon + 1));
                if (colon < 1 || port < 1 || port + add > 65_535) {
                    throw new NumberFormatException();
                }
                return address.substring(0, colon + 1) + (port + add);
            } catch (final NumberFormatException ex) {
                throw new IllegalArgumentException("a verbs address is IP:PORT, with room for a port per rank above "
                    + "it, not '" + address + "'");
            }
        }

        /** @return rank {@code rank}'s device, or null for the provider's default */
        String device(final int rank) {
            return devices.length == 0 ? null : devices[rank % devices.length];
        }

        /** @return what the ring runs over, for the header */
        String describeRing() {
            final StringBuilder ring = new StringBuilder(provider.equals("shm") ? "shared memory (shm)" : "verbs");
            if (provider.equals("verbs")) {
                ring.append(" (ranks at ").append(String.join(", ", addresses));
                if (devices.length > 0) {
                    ring.append("; devices ").append(String.join(", ", devices)).append(" in turn");
                }
                ring.append(')');
            }
            return ring.toString();
        }

        /** @return the arguments of rank {@code rank}'s JVM */
        List<String> rankArguments(final int rank) {
            final List<String> arguments = new ArrayList<>(List.of("--role=rank", "--rank=" + rank,
                "--provider=" + provider, "--addresses=" + String.join(",", addresses),
                "--processes=" + processes, "--min-bytes=" + minBytes,
                "--max-bytes=" + maxBytes, "--step-factor=" + stepFactor, "--iterations=" + iterations,
                "--warmup-iterations=" + warmups, "--jit-warmup-iterations=" + jitWarmups,
                "--slice-bytes=" + sliceBytes, "--idle=" + idle));
            if (devices.length > 0) {
                arguments.add("--devices=" + String.join(",", devices));
            }
            if (directory != null) {
                arguments.add("--directory=" + directory);
            }
            if (livenessSeconds > 0) {
                arguments.add("--liveness-seconds=" + livenessSeconds);
            }
            return arguments;
        }

        /** @return a rank's heap: its input and output vectors, and room for the rest */
        long childHeapMegabytes() {
            return 2 * maxBytes / (1 << 20) + 160;
        }

        private static long bytes(final SampleArguments arguments, final String key, final long otherwise) {
            final String value = arguments.string(key, null);
            if (value == null) {
                return otherwise;
            }
            final int shift = switch (value.charAt(value.length() - 1)) {
                case 'K', 'k' -> 10;
                case 'M', 'm' -> 20;
                case 'G', 'g' -> 30;
                default -> 0;
            };
            try {
                final long number = Long.parseLong(shift == 0 ? value : value.substring(0, value.length() - 1));
                if (number < 1 || number > (1L << 40) >> shift) {
                    throw new NumberFormatException();
                }
                return number << shift;
            } catch (final NumberFormatException ex) {
                throw new IllegalArgumentException("--" + key + " is a positive number of bytes (K, M, G allowed), "
                    + "not '" + value + "'");
            }
        }
    }
}
