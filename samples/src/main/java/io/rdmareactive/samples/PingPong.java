package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

/**
 * Round trips between two processes through the Reactor API on the shared-memory provider: the ping sends a
 * message, the pong echoes it, the ping checks every byte of the echo and sends the next. One message is in flight
 * at a time, so each round trip is a latency: it is timed with {@link System#nanoTime()} into an HdrHistogram, the
 * first 10% are discarded as warm-up, and the percentiles and the rate are printed.
 *
 * <pre>
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=ping-pong
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=ping-pong -Dsample.args="--round-trips=200000 --size=256 --idle=yielding"
 * </pre>
 *
 * <p>By default the ping starts the pong itself, as a second JVM with the same class path. To run the two sides by
 * hand, in two terminals (the same user, so the same {@code /dev/shm/rdma-reactive-$USER}):
 * <pre>
 *   java $FLAGS -cp $CP io.rdmareactive.samples.PingPong --role=pong --address=pp     (serves until Ctrl-C)
 *   java $FLAGS -cp $CP io.rdmareactive.samples.PingPong --role=ping --address=pp
 * </pre>
 * where {@code $FLAGS} is {@code --enable-native-access=ALL-UNNAMED --add-exports
 * java.base/jdk.internal.misc=ALL-UNNAMED}.
 *
 * <h2>How it is built</h2>
 * <ul>
 *   <li>The pong is the whole echo server: {@code out.send(in.receive(BYTE_ARRAY), BYTE_ARRAY)}. It decodes into a
 *       copy on purpose: a zero-copy view ({@code receiveViews()}) is valid only until {@code onNext} returns, and
 *       {@code send} may encode later (when the peer's credit is short, on the event loop once it returns), so a
 *       view must never be passed to {@code send}.</li>
 *   <li>The ping sends a {@link Sinks.Many} and receives zero-copy views: the echo is checked in place in the
 *       receive ring, and the next message is emitted from the same {@code onNext}, so the next ping leaves as soon
 *       as the echo has been read. Both happen on the connection's event loop, so the sample adds no thread hop of
 *       its own. (Below the API, on shared memory, the ping's loop encodes each message straight into the pong's
 *       receive ring; the pong's loop sees it on its next poll and its echo goes straight into the ping's ring: a
 *       round trip involves one thread in each process and no hand-off inside either.)</li>
 *   <li>One {@code byte[]} is reused for every ping: the echo of message {@code i} proves that message {@code i} was
 *       encoded into the ring, so the array is free again when the next one is filled.</li>
 *   <li>Closing: after the last echo, {@code take(n)} cancels the ping's inbound; the pong's send sees the cancel
 *       and ends quietly, its handler ends, and the server closes the connection; the ping waits for that close
 *       ({@code onDispose()}) rather than closing at the same moment, so that the run ends the same orderly way
 *       every time. (Closing both sides at once is safe as well: {@code SimultaneousCloseTest} in the core does it
 *       while both sides read in place.)</li>
 * </ul>
 *
 * <p>Idle strategy: with more than two cores the event loops busy-spin. With two or fewer, the library's default
 * there, {@code backoff}, parks an idle loop for up to a millisecond, and a loop parked in one process is not woken
 * by a message from the other (it sees it when its park ends); {@code yielding} keeps both loops polling but hands
 * the core to any runnable thread, so the sample uses it there. {@code --idle=...}, or the {@code rdma.idle}
 * property, chooses another.
 */
public final class PingPong {

    static final String USAGE = "use --round-trips=N --size=BYTES --idle=busy-spin|yielding|backoff|sleeping "
        + "[--role=ping|pong --address=NAME] [--directory=PATH] [--liveness-seconds=N] [--startup-seconds=N]";
    private static final Set<String> OPTIONS = Set.of("role", "address", "round-trips", "size", "idle", "directory",
        "provider", "once", "liveness-seconds", "startup-seconds");
    /** The longest wait for one echo: a slow machine only makes the run longer, a stuck peer ends it. */
    private static final Duration ECHO_TIMEOUT = Duration.ofSeconds(30);
    private static final String LISTENING = "pong: listening at ";
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

    private PingPong() {
    }

    public static void main(final String[] args) throws Exception {
        int status;
        try {
            status = run(args, System.out);
        } catch (final IllegalArgumentException ex) {
            System.err.println("ping-pong: " + ex.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    /**
     * Runs one side; {@code rdma-reactive ping} and {@code rdma-reactive pong} (the command-line tool) run it too.
     *
     * @param args options such as {@code --role=pong}, {@code --address=NAME}, {@code --round-trips=N}, each
     *             {@code --name=value} (one argument may hold several, separated by spaces)
     * @param out  where the report goes
     * @return 0 when every round trip came back with the right bytes, 1 otherwise
     * @throws IllegalArgumentException for an unknown or malformed option
     * @throws Exception                when binding or connecting fails, or the wait is interrupted
     */
    public static int run(final String[] args, final PrintStream out) throws Exception {
        final Settings settings = Settings.parse(args);
        return settings.role.equals("pong") ? pong(settings, out) : ping(settings, out);
    }

    // ------------------------------------------------------------------------------------------------------ pong

    private static int pong(final Settings settings, final PrintStream out) throws InterruptedException {
        if (settings.address == null) {
            throw new IllegalArgumentException("--role=pong needs --address=NAME, the name the ping connects to");
        }
        final CountDownLatch firstConnectionEnded = new CountDownLatch(1);
        final DisposableServer server = server(settings)
            .handle((in, outbound) -> {
                final long[] echoed = new long[1]; // only the connection's event loop touches it
                return outbound.send(in.receive(Codecs.BYTE_ARRAY).doOnNext(message -> echoed[0]++),
                        Codecs.BYTE_ARRAY)
                    .doFinally(signal -> {
                        out.println("pong: echoed " + echoed[0] + " messages"
                            + (signal.toString().equals("onComplete") ? "" : " (" + signal + ")"));
                        firstConnectionEnded.countDown();
                    });
            })
            .bind()
            .block(settings.startup());
        if (settings.once) {
            // started by a ping: serve it, and go away with it even if it dies first
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(3)));
            out.println(LISTENING + "'" + server.address() + "' (one connection; idle strategy '" + settings.idle
                + "')");
            firstConnectionEnded.await();
            server.dispose();
        } else {
            Runtime.getRuntime().addShutdownHook(new Thread(server::dispose, "pong-shutdown"));
            out.println(LISTENING + "'" + server.address() + "' (idle strategy '" + settings.idle
                + "'); Ctrl-C stops it");
            server.onDispose().block();
        }
        return 0;
    }

    // ------------------------------------------------------------------------------------------------------ ping

    private static int ping(final Settings settings, final PrintStream out) throws Exception {
        final boolean startPong = settings.address == null;
        final String address = startPong ? "ping-pong-" + ProcessHandle.current().pid() : settings.address;
        out.printf(Locale.ROOT, "rdma-reactive ping-pong (Reactor API): provider '%s', %s, %d round trips of %d "
                + "bytes, idle strategy '%s'%n", settings.provider,
            startPong ? "2 processes" : "pong at '" + address + "'", settings.roundTrips, settings.size, settings.idle);
        final Pinger pinger = new Pinger(settings.roundTrips, settings.size);
        final PongProcess pong = startPong ? PongProcess.start(settings, address, out) : null;
        String failure = null;
        try {
            final Connection connection = client(settings, address).connect().block(settings.startup());
            try {
                pinger.run(connection, ECHO_TIMEOUT);
                // the side that has read everything lets the other close: see the class comment
                connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            } catch (final ExecutionException ex) {
                failure = String.valueOf(ex.getCause());
            } catch (final TimeoutException ex) {
                failure = "no echo for " + ECHO_TIMEOUT.toSeconds() + " s after " + pinger.received
                    + " round trips: the pong or the connection is stuck";
            } finally {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            }
        } finally {
            if (pong != null) {
                pong.awaitExit();
            }
        }
        return report(pinger, failure, out);
    }

    private static int report(final Pinger pinger, final String failure, final PrintStream out) {
        final Histogram histogram = pinger.histogram;
        final long measured = histogram.getTotalCount();
        final boolean allBack = pinger.received == pinger.roundTrips;
        out.printf(Locale.ROOT, "round trips: %d measured (%d warm-up discarded); echoed bytes checked: %s%n",
            measured, pinger.warmUp, pinger.mismatches == 0 ? (allBack ? "all correct" : "correct so far")
                : pinger.mismatches + " MISMATCHES");
        if (failure != null || !allBack) {
            out.println("ping-pong FAILED after " + pinger.received + " of " + pinger.roundTrips + " round trips: "
                + (failure != null ? failure : "the echoes stopped"));
            return 1;
        }
        out.println("round-trip time");
        for (final double percentile : new double[] {50.0, 90.0, 99.0, 99.9}) {
            out.printf(Locale.ROOT, "  %-6s %9.2f us%n", "p" + (percentile == Math.rint(percentile)
                ? String.valueOf((int) percentile) : String.valueOf(percentile)),
                histogram.getValueAtPercentile(percentile) / 1000.0);
        }
        out.printf(Locale.ROOT, "  %-6s %9.2f us%n", "max", histogram.getMaxValue() / 1000.0);
        final double seconds = (pinger.measuredTo - pinger.measuredFrom) / 1e9;
        out.printf(Locale.ROOT, "throughput: %.0f round trips/s (one in flight at a time)%n", measured / seconds);
        return pinger.mismatches == 0 ? 0 : 1;
    }

    private static RdmaServer server(final Settings settings) {
        RdmaServer server = RdmaServer.create().provider(settings.provider).address(settings.address)
            .idleStrategy(settings.idle);
        if (settings.livenessSeconds > 0) {
            server = server.liveness(keepalive(settings), Duration.ofSeconds(settings.livenessSeconds));
        }
        return settings.directory == null ? server : server.directory(settings.directory);
    }

    private static RdmaClient client(final Settings settings, final String address) {
        RdmaClient client = RdmaClient.create().provider(settings.provider).address(address)
            .idleStrategy(settings.idle);
        if (settings.startupSeconds > 0) {
            client = client.connectTimeout(settings.startup());
        }
        if (settings.livenessSeconds > 0) {
            client = client.liveness(keepalive(settings), Duration.ofSeconds(settings.livenessSeconds));
        }
        return settings.directory == null ? client : client.directory(settings.directory);
    }

    /** The ping's side of the exchange; after {@link #run} starts it, it lives on the connection's event loop. */
    private static final class Pinger {

        final int roundTrips;
        final int size;
        final int warmUp;
        final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        private final byte[] message;
        private final Codec<DirectBuffer> views = Codecs.reusableDirectBufferView();
        private final Sinks.Many<byte[]> pings = Sinks.many().unicast().onBackpressureBuffer();
        volatile int received;
        long mismatches;
        long measuredFrom;
        long measuredTo;
        private long sentAt;

        Pinger(final int roundTrips, final int size) {
            this.roundTrips = roundTrips;
            this.size = size;
            this.warmUp = roundTrips / 10;
            this.message = new byte[size];
        }

        /** Runs every round trip; fails if one echo takes longer than {@code echoTimeout}. */
        void run(final Connection connection, final Duration echoTimeout)
            throws InterruptedException, ExecutionException, TimeoutException {
            // take(n) cancels the inbound after the last echo: the pong's send then ends, and the pong closes
            final CompletableFuture<Void> echoes = connection.inbound().receive(views).doOnNext(this::onEcho)
                .take(roundTrips).then().toFuture();
            final Disposable sending = connection.outbound().send(pings.asFlux(), Codecs.BYTE_ARRAY)
                .subscribe(null, echoes::completeExceptionally);
            try {
                send(0);
                int seen = -1;
                while (true) {
                    try {
                        echoes.get(echoTimeout.toMillis(), TimeUnit.MILLISECONDS);
                        break;
                    } catch (final TimeoutException stillRunning) {
                        if (received == seen) {
                            throw stillRunning; // not one echo in the whole wait
                        }
                        seen = received;
                    }
                }
            } finally {
                sending.dispose();
            }
        }

        private void send(final int sequence) {
            for (int i = 0; i < size; i++) {
                message[i] = pattern(sequence, i);
            }
            sentAt = System.nanoTime();
            pings.tryEmitNext(message).orThrow();
        }

        /** On the connection's event loop: the echo is a view into the receive ring, valid until this returns. */
        private void onEcho(final DirectBuffer echo) {
            final long now = System.nanoTime();
            final int sequence = received;
            if (sequence >= warmUp) {
                if (sequence == warmUp) {
                    measuredFrom = sentAt;
                }
                histogram.recordValue(Math.min(now - sentAt, HIGHEST_NANOS));
            }
            if (!matches(echo, sequence)) {
                mismatches++;
            }
            received = sequence + 1;
            if (sequence + 1 < roundTrips) {
                send(sequence + 1);
            } else {
                measuredTo = now;
            }
        }

        private boolean matches(final DirectBuffer echo, final int sequence) {
            if (echo.capacity() != size) {
                return false;
            }
            for (int i = 0; i < size; i++) {
                if (echo.getByte(i) != pattern(sequence, i)) {
                    return false;
                }
            }
            return true;
        }

        private static byte pattern(final int sequence, final int index) {
            return (byte) (sequence * 31 + index);
        }
    }

    /** The pong as a child JVM: same java, same class path, its output shown with a prefix. */
    private static final class PongProcess {

        private final Process process;
        private final Thread reader;

        private PongProcess(final Process process, final Thread reader) {
            this.process = process;
            this.reader = reader;
        }

        static PongProcess start(final Settings settings, final String address, final PrintStream out)
            throws IOException, InterruptedException {
            // the pong runs with this JVM's options (heap, collector, flags), so both sides are measured alike; not
            // a debugger agent, whose port the ping already holds
            final List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(option -> !option.startsWith("-agentlib:jdwp") && !option.startsWith("-Xrunjdwp"))
                .forEach(command::add);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), PingPong.class.getName(),
                "--role=pong", "--once", "--address=" + address, "--provider=" + settings.provider,
                "--idle=" + settings.idle));
            if (settings.livenessSeconds > 0) {
                command.add("--liveness-seconds=" + settings.livenessSeconds);
            }
            if (settings.startupSeconds > 0) {
                command.add("--startup-seconds=" + settings.startupSeconds);
            }
            if (settings.directory != null) {
                command.add("--directory=" + settings.directory);
            }
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final CompletableFuture<Void> listening = new CompletableFuture<>();
            final Thread reader = Thread.ofPlatform().daemon().name("pong-output").start(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = lines.readLine()) != null) {
                        out.println("  [pong] " + line);
                        if (line.startsWith(LISTENING)) {
                            listening.complete(null);
                        }
                    }
                } catch (final IOException ignored) {
                    // the pong is gone
                }
                listening.completeExceptionally(new IllegalStateException("the pong process exited before it "
                    + "listened; its output is above"));
            });
            final PongProcess pong = new PongProcess(process, reader);
            try {
                listening.get(settings.startup().toSeconds(), TimeUnit.SECONDS);
            } catch (final ExecutionException | TimeoutException ex) {
                pong.kill();
                throw new IllegalStateException("cannot start the pong: " + (ex instanceof TimeoutException
                    ? "it did not listen within " + settings.startup() : ex.getCause().getMessage()), ex);
            }
            return pong;
        }

        void awaitExit() throws InterruptedException {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
            reader.join(TimeUnit.SECONDS.toMillis(5)); // every line it printed is shown before the report
        }

        private void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** A fifth of the liveness timeout, as the defaults (1 s of 5 s). */
    private static Duration keepalive(final Settings settings) {
        return Duration.ofMillis(settings.livenessSeconds * 1000L / 5);
    }

    /**
     * @param livenessSeconds the connection's liveness timeout (--liveness-seconds; 0: the default of 5 s), for slow
     *                        or emulated machines where a process can stall for seconds
     * @param startupSeconds  how long binding, connecting (the server's answer included) and starting the pong may
     *                        take (--startup-seconds; 0: 30 s, and the client's default connect timeout of 10 s for
     *                        the server's answer): an emulated machine loads the classes of a first connect and of
     *                        its first accept slowly
     */
    private record Settings(String role, String address, int roundTrips, int size, String idle, Path directory,
                            String provider, boolean once, int livenessSeconds, int startupSeconds) {

        Duration startup() {
            return Duration.ofSeconds(startupSeconds > 0 ? startupSeconds : 30);
        }

        static Settings parse(final String[] args) {
            final SampleArguments arguments = SampleArguments.parse(args, OPTIONS, USAGE);
            final String role = arguments.string("role", "ping");
            if (!role.equals("ping") && !role.equals("pong")) {
                throw new IllegalArgumentException("--role is ping or pong, not '" + role + "'");
            }
            final String directory = arguments.string("directory", null);
            return new Settings(role, arguments.string("address", null),
                arguments.integer("round-trips", 50_000, 10, Integer.MAX_VALUE - 1),
                arguments.integer("size", 32, 1, 1 << 20), arguments.idle("yielding"),
                directory == null ? null : Path.of(directory), arguments.string("provider", "shm"),
                arguments.has("once"), arguments.integer("liveness-seconds", 0, 0, 3600),
                arguments.integer("startup-seconds", 0, 0, 3600));
        }
    }
}
