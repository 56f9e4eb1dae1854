package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Key lookups in a remote hash table, two ways: one-sided RDMA READs of the table, which the server's CPU never
 * sees, against {@code requestResponse} calls that the server's handler answers from the same memory.
 *
 * <pre>
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=remote-lookup
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=remote-lookup -Dsample.args="--keys=200000 --lookups=500000"
 * </pre>
 *
 * <p>By default the client starts the server as a second JVM with the same class path, on the shared-memory
 * provider. To run the server by hand (on verbs, on the host whose RDMA interface has the address):
 * <pre>
 *   java $FLAGS -cp $CP io.rdmareactive.samples.RemoteLookup --role=server --provider=verbs --address=10.0.0.1:7471
 *   java $FLAGS -cp $CP io.rdmareactive.samples.RemoteLookup --server=running --provider=verbs --address=10.0.0.1:7471
 * </pre>
 *
 * <h2>What it does</h2>
 * <ul>
 *   <li>The server builds an open-addressing table of {@code --keys} keys in twice as many 64-byte slots, with linear
 *       probing ({@link LookupTable}), in memory it registers on each client's connection as a READ-only region
 *       ({@link ServedMemory}), and sends the region's descriptor when asked ({@link LookupServer}).</li>
 *   <li>The client READs the table's header once, then runs the same {@code --lookups} lookups twice, each time with
 *       {@code --in-flight} of them at once: with READs ({@link LookupClient}: one READ of {@code --window} slots
 *       from the key's home slot, and a second only when the key's probe goes past them), and with
 *       {@code requestResponse} calls. A warm-up of a fifth as many lookups of other keys runs first, each way.</li>
 *   <li>Every lookup is checked: a key in the table must be found, with the value words derived from it (and, read
 *       with READs, the slot's checksum); an absent key ({@code --absent-percent} of them) must be a miss.</li>
 *   <li>For each way it prints the lookups per second, the latency percentiles of one lookup (HdrHistogram) and the
 *       server's CPU time per lookup: the server process's CPU time (all its threads, user and system) as it reports
 *       it itself over a call before and after the phase, divided by the lookups. The server's event loop uses the
 *       {@code backoff} idle strategy by default, so that when it has no work it parks instead of spinning; its
 *       CPU time while idle is measured first, for one second, and printed as well.</li>
 * </ul>
 * It exits 0 only when every check passed.
 */
public final class RemoteLookup {

    static final String USAGE = "use --keys=N --lookups=N --in-flight=N --window=SLOTS --absent-percent=P "
        + "--provider=shm|verbs --idle=STRATEGY --server-idle=STRATEGY [--server=child|running --address=NAME] "
        + "[--directory=PATH] | --role=server --address=NAME [--keys=N]";
    static final String PASSED = "remote-lookup: every check passed";
    private static final Set<String> OPTIONS = Set.of("role", "server", "address", "provider", "directory", "keys",
        "lookups", "in-flight", "window", "absent-percent", "idle", "server-idle", "once");
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final String LISTENING = "lookup server: listening at ";
    private static final long WARM_UP_FIRST = 1L << 40;

    private RemoteLookup() {
    }

    public static void main(final String[] args) throws Exception {
        int status;
        try {
            status = run(args, System.out);
        } catch (final IllegalArgumentException ex) {
            System.err.println("remote-lookup: " + ex.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    /**
     * Runs one side.
     *
     * @return 0 when every check passed, 1 otherwise
     */
    static int run(final String[] args, final PrintStream out) throws Exception {
        final Settings settings = Settings.parse(args);
        return settings.role.equals("server") ? serve(settings, out) : lookUp(settings, out);
    }

    // ---------------------------------------------------------------------------------------------------- server

    private static int serve(final Settings settings, final PrintStream out) throws InterruptedException {
        final long started = System.nanoTime();
        final LookupTable table = LookupTable.build(settings.keys);
        final LookupServer lookups = new LookupServer(table);
        final CountDownLatch firstConnectionEnded = new CountDownLatch(1);
        final AtomicBoolean connected = new AtomicBoolean();
        RdmaServer builder = RdmaServer.create().provider(settings.provider).address(settings.address)
            .idleStrategy(settings.serverIdle)
            .handleStreams((kind, in, outbound) -> {
                if (connected.compareAndSet(false, true)) {
                    in.connection().onDispose().onErrorComplete()
                        .subscribe(null, null, firstConnectionEnded::countDown);
                }
                return lookups.handle(kind, in, outbound);
            });
        if (settings.directory != null) {
            builder = builder.directory(settings.directory);
        }
        final DisposableServer server = builder.bind().block(STARTUP);
        out.printf(Locale.ROOT, "%s'%s' (%d keys in %d slots of %d bytes, %.1f MiB, longest probe %d slots, %d keys "
                + "in the overflow area; built in %d ms; idle strategy '%s')%n", LISTENING, server.address(),
            table.keys(), table.capacity(), LookupTable.SLOT, table.bytes() / 1048576.0, table.probeBound(),
            table.overflowUsed(), (System.nanoTime() - started) / 1_000_000, settings.serverIdle);
        try {
            if (settings.once) {
                // started by a client: serve it, and go away with it even if it dies first
                ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(3)));
                firstConnectionEnded.await();
            } else {
                out.println("lookup server: Ctrl-C stops it");
                Runtime.getRuntime().addShutdownHook(new Thread(server::dispose, "lookup-server-shutdown"));
                server.onDispose().block();
            }
        } finally {
            server.dispose();
            server.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            lookups.close();
        }
        return 0;
    }

    // ---------------------------------------------------------------------------------------------------- client

    private static int lookUp(final Settings settings, final PrintStream out) throws Exception {
        final boolean child = settings.server.equals("child");
        final String address = settings.address != null ? settings.address
            : "remote-lookup-" + ProcessHandle.current().pid();
        out.printf(Locale.ROOT, "rdma-reactive remote-lookup: provider '%s', %s, %d lookups each way (%d%% of "
                + "them for absent keys), %d in flight, idle strategy '%s'%n", settings.provider,
            child ? "server in a second JVM (idle strategy '" + settings.serverIdle + "')" : "server at '" + address
                + "'", settings.lookups, settings.absentPercent, settings.inFlight, settings.idle);
        final ChildJvm server = child ? startServer(settings, address, out) : null;
        try {
            RdmaClient builder = RdmaClient.create().provider(settings.provider).address(address)
                .idleStrategy(settings.idle);
            if (settings.directory != null) {
                builder = builder.directory(settings.directory);
            }
            final Connection connection = builder.connect().block(STARTUP);
            try (LookupClient client = LookupClient.open(connection, settings.inFlight, settings.window,
                settings.absentPercent)) {
                return measure(client, settings, out);
            } finally {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            }
        } finally {
            if (server != null) {
                server.awaitExit(Duration.ofSeconds(20));
            }
        }
    }

    private static ChildJvm startServer(final Settings settings, final String address, final PrintStream out)
        throws Exception {
        final List<String> arguments = new ArrayList<>(List.of("--role=server", "--once", "--address=" + address,
            "--provider=" + settings.provider, "--keys=" + settings.keys, "--server-idle=" + settings.serverIdle));
        if (settings.directory != null) {
            arguments.add("--directory=" + settings.directory);
        }
        final ChildJvm server = ChildJvm.start(RemoteLookup.class, List.of(), arguments, "  [server] ", out);
        try {
            server.awaitLine(LISTENING, STARTUP);
        } catch (final IllegalStateException ex) {
            server.close();
            throw ex;
        }
        return server;
    }

    private static int measure(final LookupClient client, final Settings settings, final PrintStream out)
        throws InterruptedException {
        final LookupTable table = client.table();
        out.printf(Locale.ROOT, "table: %d keys in %d slots + %d of overflow, %d bytes each, in a READ-only region "
                + "of %d bytes; longest probe %d slots, so a lookup READs %d slots (%d bytes) from its home slot, "
                + "and the other %d only when its probe goes past them%n", table.keys(), table.capacity(),
            table.probeBound(), LookupTable.SLOT, client.descriptor().length(), table.probeBound(), client.window(),
            client.window() * LookupTable.SLOT, table.probeBound() - client.window());
        final long idleFrom = client.serverCpuNanos();
        final long idleStart = System.nanoTime();
        Thread.sleep(1000);
        final double idleCpuPerSecond = (client.serverCpuNanos() - idleFrom) / ((System.nanoTime() - idleStart) / 1e9);

        final int warmUp = Math.max(1, settings.lookups / 5);
        client.readPhase(WARM_UP_FIRST, warmUp);
        client.callPhase(WARM_UP_FIRST, warmUp);

        final Phase reads = Phase.run("one-sided READ", client, () -> client.readPhase(0, settings.lookups));
        final Phase calls = Phase.run("requestResponse", client, () -> client.callPhase(0, settings.lookups));

        out.printf(Locale.ROOT, "server CPU while idle: %.1f ms per second%n", idleCpuPerSecond / 1e6);
        out.printf(Locale.ROOT, "%-16s %11s %9s %9s %18s %13s%n", "method", "lookups/s", "p50 us", "p99 us",
            "server CPU/lookup", "READs/lookup");
        for (final Phase phase : List.of(reads, calls)) {
            out.printf(Locale.ROOT, "%-16s %11.0f %9.2f %9.2f %15.2f us %13s%n", phase.name, phase.perSecond(),
                phase.tally.latencies.getValueAtPercentile(50) / 1000.0,
                phase.tally.latencies.getValueAtPercentile(99) / 1000.0, phase.serverCpuPerLookupNanos() / 1000.0,
                phase == reads ? String.format(Locale.ROOT, "%.3f", phase.tally.reads / (double) settings.lookups)
                    : "-");
        }
        out.printf(Locale.ROOT, "(server CPU: the server process's own CPU time, every thread, user and system, as "
                + "ProcessHandle.info().totalCpuDuration() gives it, which it reports over a requestResponse call "
                + "before and after each phase; Linux counts it in ticks of 10 ms, so each figure is within "
                + "%.3f us; it includes what the server spends idle, %.1f ms per second here)%n",
            10_000.0 / settings.lookups, idleCpuPerSecond / 1e6);
        boolean passed = true;
        for (final Phase phase : List.of(reads, calls)) {
            passed &= phase.report(settings.lookups, out);
        }
        out.println(passed ? PASSED : "remote-lookup: FAILED");
        return passed ? 0 : 1;
    }

    /** One measured way of looking up: its results, how long it took and the server's CPU time meanwhile. */
    private record Phase(String name, LookupTally tally, long nanos, long serverCpuNanos) {

        static Phase run(final String name, final LookupClient client,
                         final Supplier<LookupTally> lookups) {
            final long cpuBefore = client.serverCpuNanos();
            final long start = System.nanoTime();
            final LookupTally tally = lookups.get();
            final long nanos = System.nanoTime() - start;
            return new Phase(name, tally, nanos, client.serverCpuNanos() - cpuBefore);
        }

        double perSecond() {
            return tally.lookups() / (nanos / 1e9);
        }

        double serverCpuPerLookupNanos() {
            return serverCpuNanos / (double) Math.max(1, tally.lookups());
        }

        /** Prints the phase's checks. @return true if every lookup came out right */
        boolean report(final int lookups, final PrintStream out) {
            final boolean allDone = tally.lookups() == lookups;
            out.printf(Locale.ROOT, "%s: %d lookups, %d hits with the right value, %d misses of absent keys, "
                    + "%d wrong%s%s%n", name, tally.lookups(), tally.hits, tally.misses, tally.wrong,
                tally.reads > 0 ? String.format(Locale.ROOT, "; %d READs, %d of them second READs", tally.reads,
                    tally.secondReads) : "",
                allDone ? "" : " (of " + lookups + " lookups)");
            tally.failures.forEach(failure -> out.println("  WRONG: " + failure));
            return allDone && tally.wrong == 0;
        }
    }

    /** The options. */
    private record Settings(String role, String server, String address, String provider, Path directory, int keys,
                            int lookups, int inFlight, int window, int absentPercent, String idle, String serverIdle,
                            boolean once) {

        static Settings parse(final String[] args) {
            final SampleArguments arguments = SampleArguments.parse(args, OPTIONS, USAGE);
            final String role = arguments.string("role", "client");
            final String server = arguments.string("server", "child");
            if (!role.equals("client") && !role.equals("server")) {
                throw new IllegalArgumentException("--role is client or server, not '" + role + "'");
            }
            if (!server.equals("child") && !server.equals("running")) {
                throw new IllegalArgumentException("--server is child or running, not '" + server + "'");
            }
            final String provider = arguments.string("provider", "shm");
            final String address = arguments.string("address", null);
            if (address == null && (role.equals("server") || server.equals("running") || !provider.equals("shm"))) {
                throw new IllegalArgumentException("--address=NAME is needed: the server's address (on verbs, "
                    + "host:port of its RDMA interface); " + USAGE);
            }
            final String directory = arguments.string("directory", null);
            return new Settings(role, server, address, provider, directory == null ? null : Path.of(directory),
                arguments.integer("keys", 100_000, 1, 1_000_000),
                arguments.integer("lookups", 200_000, 10, Integer.MAX_VALUE / 2),
                arguments.integer("in-flight", 16, 1, 1024), arguments.integer("window", 8, 1, 1024),
                arguments.integer("absent-percent", 10, 0, 100), arguments.idle("yielding"),
                arguments.string("server-idle", "backoff"), arguments.has("once"));
        }
    }
}
