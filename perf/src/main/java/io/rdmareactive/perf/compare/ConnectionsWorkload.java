package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Mono;

/**
 * Many connections at once: K {@code RdmaClient} connections from this JVM to one {@code RdmaServer} (the
 * transport's provider), opened one after the other, then round-robin request-response over them, one call in
 * flight at a time across all of them ({@link ClosedLoopCalls}, 32 B by default), for the measured time. Reports the
 * round trips, how long opening took, and the process's threads and resident memory before, with the K connections
 * open, and after closing them.
 *
 * <p>Opening is bounded: each connection gets {@link #PER_CONNECTION} (or what is left of the deadline, if less),
 * and all of them together {@code --connections-open-timeout}. Past either, the point is recorded as failed with
 * how many opened, what opened is closed, and the run goes on; a connection that completes after its wait was given
 * up is closed when it does. Closing is bounded by the same timeout: every connection's {@code onDispose()}, then
 * the server's.
 */
final class ConnectionsWorkload {

    static final Duration PER_CONNECTION = Duration.ofSeconds(10);
    static final int SIZE = 32;

    private ConnectionsWorkload() {
    }

    static Results.Connections run(final ReactiveTransport transport, final int count, final Settings settings,
                                   final Progress.Point progress) throws Exception {
        final Results.Footprint before = ProcessFootprint.read();
        final ReactiveTransport.Endpoints endpoints = transport.endpoints(SIZE);
        final DisposableServer server = endpoints.server().handleStreams(Answers.ECHO).bind()
            .block(RequestResponseWorkload.SETUP_TIMEOUT);
        final List<Connection> connections = new ArrayList<>(count);
        final Answers answers = new Answers(SIZE);
        String failure = null;
        double openSeconds;
        Results.Footprint open = null;
        long calls = 0;
        double callsPerSecond = Double.NaN;
        Map<String, Double> percentiles = Map.of();
        final Closing closing;
        try {
            final long openStart = System.nanoTime();
            failure = open(endpoints.client().requestTimeout(RequestResponseWorkload.CALL_TIMEOUT), count,
                settings.connectionsOpen(), connections);
            openSeconds = (System.nanoTime() - openStart) / 1e9;
            if (failure == null) {
                final ClosedLoopCalls loop = new ClosedLoopCalls(connections.stream().map(Caller::of).toArray(Caller[]::new), answers,
                    settings.idle().newStrategy(), RequestResponseWorkload.CALL_TIMEOUT.toNanos());
                loop.run(settings.warmUp().toNanos(), null, progress, 0);
                final Histogram histogram = new Histogram(PingPongWorkload.HIGHEST_NANOS, 3);
                final long start = System.nanoTime();
                calls = loop.run(settings.duration().toNanos(), histogram, progress, settings.warmUp().toMillis());
                callsPerSecond = calls / ((System.nanoTime() - start) / 1e9);
                percentiles = PingPongWorkload.percentiles(histogram);
            }
            open = ProcessFootprint.read();
        } finally {
            closing = close(connections, server, settings.connectionsOpen(), before.libraryThreads());
        }
        return new Results.Connections(transport.name(), count, SIZE, connections.size(), openSeconds, calls,
            callsPerSecond, percentiles, before, open, closing.after, closing.seconds, closing.notClosed,
            closing.problem, answers.checked(), answers.refused(), answers.wrong(), answers.failed(), failure);
    }

    /**
     * Opens {@code count} connections into {@code opened}, one after the other, within {@code deadline}.
     *
     * @return null if all opened, else why not (the ones that did are in {@code opened})
     */
    static String open(final RdmaClient client, final int count, final Duration deadline,
                       final List<Connection> opened) throws InterruptedException {
        final long end = System.nanoTime() + deadline.toNanos();
        for (int i = 0; i < count; i++) {
            final long left = end - System.nanoTime();
            if (left <= 0) {
                return "opened " + i + " of " + count + " connections before the deadline of "
                    + seconds(deadline) + " passed";
            }
            final Duration wait = Duration.ofNanos(Math.min(PER_CONNECTION.toNanos(), left));
            final CompletableFuture<Connection> connecting = client.connectTimeout(wait).connect().toFuture();
            try {
                opened.add(connecting.get(wait.toNanos(), TimeUnit.NANOSECONDS));
            } catch (final TimeoutException ex) {
                connecting.thenAccept(Connection::dispose); // should it open later, it is closed then
                return "opened " + i + " of " + count + " connections: connection " + (i + 1) + " did not open "
                    + "within " + seconds(wait) + (wait.equals(PER_CONNECTION) ? " (per connection)"
                    : " (the rest of the deadline of " + seconds(deadline) + ")");
            } catch (final ExecutionException ex) {
                return "opened " + i + " of " + count + " connections: connection " + (i + 1) + " failed: "
                    + ex.getCause();
            }
        }
        return null;
    }

    /** What closing left, and how long it took. */
    private record Closing(Results.Footprint after, double seconds, int notClosed, String problem) {
    }

    /**
     * Disposes every connection, then the server, waiting for their {@code onDispose()} at most {@code bound} in
     * all, and then at most a second more for the library's threads to be back to {@code libraryThreadsBefore}.
     * {@code DisposableServer.dispose()} blocks while it closes its side of the connections (and throws if that
     * takes too long), so it runs on a thread of its own, waited for within the bound too.
     */
    private static Closing close(final List<Connection> connections, final DisposableServer server,
                                 final Duration bound, final int libraryThreadsBefore) throws InterruptedException {
        final long start = System.nanoTime();
        final long end = start + bound.toNanos();
        final List<String> problems = new ArrayList<>();
        final AtomicInteger closed = new AtomicInteger();
        final List<Mono<Void>> ends = new ArrayList<>(connections.size());
        for (final Connection connection : connections) {
            connection.dispose();
            ends.add(connection.onDispose().onErrorComplete().doFinally(signal -> closed.incrementAndGet()));
        }
        try {
            Mono.when(ends).block(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
        } catch (final IllegalStateException ex) {
            problems.add((connections.size() - closed.get()) + " connections' onDispose() did not complete within "
                + seconds(bound));
        }
        disposeServer(server, end, problems);
        final double seconds = (System.nanoTime() - start) / 1e9;
        // a connection's threads may end just after its onDispose: give them a moment
        Waiting.until(() -> ProcessFootprint.libraryThreads() <= libraryThreadsBefore, 1000);
        return new Closing(ProcessFootprint.read(), seconds, connections.size() - closed.get(),
            problems.isEmpty() ? null : String.join("; ", problems));
    }

    /** Disposes the server on a thread of its own and waits for its {@code onDispose()}, until {@code end}. */
    private static void disposeServer(final DisposableServer server, final long end, final List<String> problems)
        throws InterruptedException {
        final long start = System.nanoTime();
        final CompletableFuture<Void> disposing = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("perf-server-dispose").start(() -> {
            try {
                server.dispose();
                disposing.complete(null);
            } catch (final RuntimeException | Error ex) {
                disposing.completeExceptionally(ex);
            }
        });
        try {
            disposing.get(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            server.onDispose().onErrorComplete().block(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
        } catch (final ExecutionException ex) {
            problems.add("DisposableServer.dispose() threw after " + millis(System.nanoTime() - start) + ": "
                + ex.getCause());
        } catch (final TimeoutException ex) {
            problems.add("DisposableServer.dispose() had not returned within the bound");
        } catch (final IllegalStateException ex) {
            problems.add("the server's onDispose() did not complete within the bound");
        }
    }

    private static String millis(final long nanos) {
        return nanos / 1_000_000 + " ms";
    }

    private static String seconds(final Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
