package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.RegionAccess;
import io.rdmareactive.RegionDescriptor;
import io.rdmareactive.RemoteOperation;
import io.rdmareactive.RemoteRegion;
import io.rdmareactive.StreamKind;
import io.rdmareactive.codec.Codecs;
import java.io.PrintStream;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One 64-bit counter in a server's memory, incremented by several processes at once with one-sided atomic
 * FETCH_AND_ADDs: the server process registers the counter's memory on each client's connection with
 * {@code REMOTE_ATOMIC} ({@link ServedMemory}), sends the descriptor when asked, and starts {@code --processes}
 * client JVMs, each of which adds 1 to the counter {@code --increments} times through
 * {@link RemoteRegion#execute} (a bounded number in flight; all clients start together, once each has its
 * descriptor) and checks that the values it got back (the counter
 * before each of its additions) rise strictly. Once every client has exited, the server reads the counter: it must be
 * exactly processes x increments, and the values the clients got back must add up to 0 + 1 + ... + (that - 1), as
 * they do when every value before was handed out once.
 *
 * <pre>
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=shared-counter
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=shared-counter -Dsample.args="--processes=8 --increments=100000"
 * </pre>
 *
 * It exits 0 only when every check passed. A client is this class with {@code --role=incrementer}; the server starts
 * them itself.
 */
public final class SharedCounter {

    static final String USAGE = "use --processes=N --increments=N --provider=shm|verbs --idle=STRATEGY "
        + "[--address=NAME] [--directory=PATH]";
    static final String PASSED = "shared-counter: every check passed";
    private static final Set<String> OPTIONS = Set.of("role", "processes", "increments", "provider", "address",
        "directory", "idle");
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final String COUNTER = "counter";
    private static final String START = "start";
    private static final String DONE = "incrementer done: ";
    private static final Pattern DONE_LINE = Pattern.compile(Pattern.quote(DONE)
        + "(\\d+) increments, values before rising strictly: (yes|NO), their sum (-?\\d+), .*");

    private SharedCounter() {
    }

    public static void main(final String[] args) throws Exception {
        int status;
        try {
            status = run(args, System.out);
        } catch (final IllegalArgumentException ex) {
            System.err.println("shared-counter: " + ex.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    /**
     * Runs the server and its clients, or (with {@code --role=incrementer}) one client.
     *
     * @return 0 when every check passed, 1 otherwise
     */
    static int run(final String[] args, final PrintStream out) throws Exception {
        final Settings settings = Settings.parse(args);
        return settings.role.equals("incrementer") ? increment(settings, out) : serve(settings, out);
    }

    // ---------------------------------------------------------------------------------------------------- server

    private static int serve(final Settings settings, final PrintStream out) throws Exception {
        final String address = settings.address != null ? settings.address
            : "shared-counter-" + ProcessHandle.current().pid();
        out.printf(Locale.ROOT, "rdma-reactive shared-counter: provider '%s', %d processes each add 1 to one "
                + "64-bit counter in this process's memory %d times with FETCH_AND_ADD, idle strategy '%s'%n",
            settings.provider, settings.processes, settings.increments, settings.idle);
        final ServedMemory counter = new ServedMemory(Long.BYTES, buffer -> buffer.putLong(0, 0),
            RegionAccess.REMOTE_ATOMIC);
        final StartLine start = new StartLine(settings.processes);
        final Scheduler registering = Schedulers.boundedElastic(); // made here, not on the event loop
        RdmaServer builder = RdmaServer.create().provider(settings.provider).address(address)
            .idleStrategy(settings.idle)
            .handleStreams((kind, in, outbound) -> kind != StreamKind.REQUEST_RESPONSE
                ? Mono.error(new IllegalArgumentException("the counter server answers requestResponse calls only"))
                : in.receive(Codecs.UTF8_STRING).next().flatMap(request -> switch (request) {
                    case COUNTER -> Mono.fromCallable(() -> counter.regionFor(in.connection()).descriptor())
                        .subscribeOn(registering) // registering is a system call: off the event loop
                        .flatMap(descriptor -> outbound.send(Mono.just(descriptor), RegionDescriptor.CODEC));
                    case START -> start.arrive().then(outbound.send(Mono.just(START), Codecs.UTF8_STRING));
                    default -> Mono.error(new IllegalArgumentException("unknown request '" + request + "'"));
                }));
        if (settings.directory != null) {
            builder = builder.directory(settings.directory);
        }
        final DisposableServer server = builder.bind().block(STARTUP);
        final List<ChildJvm> clients = new ArrayList<>();
        final long started = System.nanoTime();
        try {
            for (int i = 1; i <= settings.processes; i++) {
                clients.add(startClient(settings, server.address(), i, out));
            }
            final List<Integer> statuses = new ArrayList<>();
            for (final ChildJvm client : clients) {
                statuses.add(client.awaitExit(Duration.ofSeconds(120).plusMillis(settings.increments / 10)));
            }
            final double seconds = (System.nanoTime() - started) / 1e9;
            // the clients' atomics completed before they exited; the fence keeps this read after those exits
            VarHandle.fullFence();
            final long value = counter.bufferOrNull() == null ? 0 : counter.bufferOrNull().getLong(0);
            return report(settings, clients, statuses, value, seconds, out);
        } finally {
            for (final ChildJvm client : clients) {
                client.close();
            }
            server.dispose();
            server.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            counter.close();
        }
    }

    private static ChildJvm startClient(final Settings settings, final String address, final int number,
                                        final PrintStream out) throws java.io.IOException {
        final List<String> arguments = new ArrayList<>(List.of("--role=incrementer", "--address=" + address,
            "--provider=" + settings.provider, "--increments=" + settings.increments, "--idle=" + settings.idle));
        if (settings.directory != null) {
            arguments.add("--directory=" + settings.directory);
        }
        return ChildJvm.start(SharedCounter.class, List.of("-Xmx128m"), arguments, "  [client " + number + "] ", out);
    }

    private static int report(final Settings settings, final List<ChildJvm> clients, final List<Integer> statuses,
                              final long value, final double seconds, final PrintStream out) {
        boolean passed = true;
        long sum = 0;
        for (int i = 0; i < clients.size(); i++) {
            final String line = clients.get(i).firstLine(DONE);
            final Matcher done = line == null ? null : DONE_LINE.matcher(line);
            if (statuses.get(i) != 0 || done == null || !done.matches() || !done.group(2).equals("yes")
                || Long.parseLong(done.group(1)) != settings.increments) {
                out.println("client " + (i + 1) + " FAILED: exit status " + statuses.get(i) + ", its report: " + line);
                passed = false;
            } else {
                sum += Long.parseLong(done.group(3));
            }
        }
        final long expected = (long) settings.processes * settings.increments;
        final long expectedSum = expected * (expected - 1) / 2;
        out.printf(Locale.ROOT, "counter: %d, expected %d (%d processes x %d increments): %s%n", value, expected,
            settings.processes, settings.increments, value == expected ? "exact" : "WRONG");
        out.printf(Locale.ROOT, "values before, summed over every client: %d, expected 0 + 1 + ... + %d = %d: %s%n",
            sum, expected - 1, expectedSum, sum == expectedSum ? "equal" : "DIFFERENT");
        out.printf(Locale.ROOT, "%d increments in %.2f s, client JVMs' start-up included (%.0f per second)%n",
            expected, seconds, expected / seconds);
        passed &= value == expected && sum == expectedSum;
        out.println(passed ? PASSED : "shared-counter: FAILED");
        return passed ? 0 : 1;
    }

    // ------------------------------------------------------------------------------------------------ incrementer

    private static int increment(final Settings settings, final PrintStream out) {
        if (settings.address == null) {
            throw new IllegalArgumentException("--role=incrementer needs --address=NAME, the counter server's");
        }
        // started by the server: go away with it
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(3)));
        RdmaClient builder = RdmaClient.create().provider(settings.provider).address(settings.address)
            .idleStrategy(settings.idle);
        if (settings.directory != null) {
            builder = builder.directory(settings.directory);
        }
        final Connection connection = builder.connect().block(STARTUP);
        try {
            final RemoteRegion counter = connection.remoteRegion(connection.requestResponse(COUNTER,
                Codecs.UTF8_STRING, RegionDescriptor.CODEC).block(STARTUP));
            final long[] seen = new long[4]; // count, sum of the values before, the last value before, start time
            final boolean[] rising = {true};
            seen[2] = -1;
            // every client waits for the start answer until all have their descriptor, so that they all add at the
            // same time
            connection.requestResponse(START, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .flatMapMany(go -> {
                    seen[3] = System.nanoTime();
                    return counter.execute(Flux.range(0, settings.increments)
                        .map(i -> RemoteOperation.fetchAndAdd(0, 1)));
                })
                .doOnNext(before -> { // on the connection's event loop, one at a time, in the operations' order
                    rising[0] &= before > seen[2];
                    seen[0]++;
                    seen[1] += before;
                    seen[2] = before;
                })
                .then().block(STARTUP.plusMillis(settings.increments));
            final double seconds = (System.nanoTime() - seen[3]) / 1e9;
            out.printf(Locale.ROOT, "%s%d increments, values before rising strictly: %s, their sum %d, in %.3f s "
                    + "(%.0f per second, up to %d in flight)%n", DONE, seen[0], rising[0] ? "yes" : "NO", seen[1],
                seconds, seen[0] / seconds, connection.maxOneSidedInFlight());
            return rising[0] && seen[0] == settings.increments ? 0 : 1;
        } finally {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
        }
    }

    /** Holds the clients' start calls until every client has made one. */
    private static final class StartLine {

        private final AtomicInteger waiting;
        private final Sinks.Empty<Void> allThere = Sinks.empty();

        StartLine(final int clients) {
            this.waiting = new AtomicInteger(clients);
        }

        /** @return completes once every client has arrived */
        Mono<Void> arrive() {
            if (waiting.decrementAndGet() == 0) {
                allThere.emitEmpty(Sinks.EmitFailureHandler.busyLooping(Duration.ofSeconds(1)));
            }
            return allThere.asMono();
        }
    }

    /** The options. */
    private record Settings(String role, int processes, int increments, String provider, String address,
                            Path directory, String idle) {

        static Settings parse(final String[] args) {
            final SampleArguments arguments = SampleArguments.parse(args, OPTIONS, USAGE);
            final String role = arguments.string("role", "server");
            if (!role.equals("server") && !role.equals("incrementer")) {
                throw new IllegalArgumentException("--role is server or incrementer, not '" + role + "'");
            }
            final String provider = arguments.string("provider", "shm");
            final String address = arguments.string("address", null);
            if (address == null && !provider.equals("shm")) {
                throw new IllegalArgumentException("--address=host:port is needed on " + provider + ": the RDMA "
                    + "interface the server binds and its clients connect to");
            }
            final String directory = arguments.string("directory", null);
            return new Settings(role, arguments.integer("processes", 4, 1, 64),
                arguments.integer("increments", 10_000, 1, Integer.MAX_VALUE / 64), provider, address,
                directory == null ? null : Path.of(directory), arguments.idle("backoff"));
        }
    }
}
