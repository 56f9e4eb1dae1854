package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.perf.compare.transport.RSocketTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Request-response through rdma-reactive's public API: a server whose {@code StreamHandler} answers each request
 * with its bytes ({@link Answers#ECHO}), one client connection calling {@code Connection.requestResponse}. Two modes
 * on the same connection:
 * <ul>
 *   <li><b>one in flight</b> (closed loop, {@link ClosedLoopCalls}): the next call is issued when the previous one
 *       is answered; round trips, calls per second;</li>
 *   <li><b>N in flight</b>: a {@code Flux} of calls through {@code flatMap(call, N)} for the measured time; every
 *       call's time from its issue to its answer, and the calls answered per second of the measured window. A call
 *       refused with {@code RdmaStreamsBusyException} (every request stream of the connection busy) is counted and
 *       waits in {@link RefusedCalls} until an earlier call ends, then tries again, as the exception's contract
 *       suggests; its round trip counts from its first attempt, waiting included.</li>
 * </ul>
 * Every answer is checked (length, sequence number, bytes); wrong answers and failed calls are counted, not fatal.
 */
final class RequestResponseWorkload {

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
        static final Duration SETUP_TIMEOUT = Duration.ofSeconds(30);
    static final String ONE_IN_FLIGHT = "one-in-flight";
    static final String IN_FLIGHT = "in-flight";

    private RequestResponseWorkload() {
    }

    /** @return the one-in-flight and the N-in-flight result at {@code size} */
    static List<Results.RequestResponse> run(final ReactiveTransport transport, final int size,
                                             final Settings settings, final Progress.Point progress)
        throws Exception {
        final ReactiveTransport.Endpoints endpoints = transport.endpoints(size);
        final DisposableServer server = endpoints.server().handleStreams(Answers.ECHO).bind().block(SETUP_TIMEOUT);
        Connection connection = null;
        try {
            connection = endpoints.client().requestTimeout(CALL_TIMEOUT).connect().block(SETUP_TIMEOUT);
            final List<Results.RequestResponse> results = new ArrayList<>();
            final Caller caller = Caller.of(connection);
            results.add(oneInFlight(transport.name(), caller, size, settings, progress));
            results.add(inFlight(transport.name(), caller, size, settings, progress,
                settings.warmUp().toMillis() + settings.duration().toMillis()));
            return results;
        } finally {
            close(connection, server);
        }
    }

    /** @return the one-in-flight and the N-in-flight result at {@code size}, over RSocket's requestResponse */
    static List<Results.RequestResponse> run(final RSocketTransport transport, final int size,
                                             final Settings settings, final Progress.Point progress)
        throws Exception {
        try (RSocketTransport.Calls calls = transport.calls(SETUP_TIMEOUT)) {
            final List<Results.RequestResponse> results = new ArrayList<>();
            results.add(oneInFlight(transport.name(), calls::call, size, settings, progress));
            results.add(inFlight(transport.name(), calls::call, size, settings, progress,
                settings.warmUp().toMillis() + settings.duration().toMillis()));
            return results;
        }
    }

    private static Results.RequestResponse oneInFlight(final String transport, final Caller caller,
                                                       final int size, final Settings settings,
                                                       final Progress.Point progress) {
        final Answers answers = new Answers(size);
        final ClosedLoopCalls calls = new ClosedLoopCalls(new Caller[] {caller}, answers,
            settings.idle().newStrategy(), CALL_TIMEOUT.toNanos());
        calls.run(settings.warmUp().toNanos(), null, progress, 0);
        final Histogram histogram = new Histogram(PingPongWorkload.HIGHEST_NANOS, 3);
        final ProcessMeter.Reading before = ProcessMeter.read();
        final long answered = calls.run(settings.duration().toNanos(), histogram, progress,
            settings.warmUp().toMillis());
        final ProcessMeter.Usage usage = ProcessMeter.read().since(before);
        return result(transport, size, ONE_IN_FLIGHT, 1, histogram, answered / (usage.elapsedNanos() / 1e9), usage,
            answers);
    }

    private static Results.RequestResponse inFlight(final String transport, final Caller caller,
                                                    final int size, final Settings settings,
                                                    final Progress.Point progress, final long progressBase)
        throws Exception {
        final int concurrency = settings.rrInFlight();
        final Answers answers = new Answers(size);
        final Histogram histogram = new Histogram(PingPongWorkload.HIGHEST_NANOS, 3);
        final long start = System.nanoTime();
        final long measureStart = start + settings.warmUp().toNanos();
        final long end = measureStart + settings.duration().toNanos();
        final long retryUntil = end + CALL_TIMEOUT.toNanos();
        final RefusedCalls refused = new RefusedCalls();
        final CompletableFuture<Void> done = Flux.<Long, Long>generate(() -> 0L, (sequence, sink) -> {
            if (System.nanoTime() < end) {
                sink.next(sequence);
            } else {
                sink.complete();
            }
            return sequence + 1;
        }).flatMap(sequence -> call(caller, answers, sequence, refused, retryUntil), concurrency, 1)
            .doOnNext(roundTrip -> { // flatMap hands these on one at a time: the histogram needs no lock
                final long now = System.nanoTime();
                if (now >= measureStart && now < end) {
                    histogram.recordValue(Math.min(roundTrip, PingPongWorkload.HIGHEST_NANOS));
                }
            }).then().toFuture();
        try {
            final long warmUp = settings.warmUp().toMillis();
            Waiting.sleep(Math.max(0, (measureStart - System.nanoTime()) / 1_000_000), progressBase, progress,
                () -> { });
            final ProcessMeter.Reading before = ProcessMeter.read();
            Waiting.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000), progressBase + warmUp, progress,
                () -> { });
            final ProcessMeter.Usage usage = ProcessMeter.read().since(before);
            // the calls in flight at the end finish (answered, failed or timed out) within the call timeout
            done.get(2 * CALL_TIMEOUT.toMillis() + 5000, TimeUnit.MILLISECONDS);
            return result(transport, size, IN_FLIGHT, concurrency, histogram,
                histogram.getTotalCount() / (settings.duration().toNanos() / 1e9), usage, answers);
        } catch (final TimeoutException ex) {
            throw new IllegalStateException("the calls in flight did not finish within twice the call timeout", ex);
        } finally {
            done.cancel(true);
            refused.dispose();
        }
    }

    /** @return one call: its round trip in nanoseconds once answered (and checked), or empty if it failed */
    private static Mono<Long> call(final Caller caller, final Answers answers, final long sequence,
                                   final RefusedCalls refused, final long retryUntil) {
        final byte[] request = answers.request(sequence);
        return Mono.defer(() -> attempt(caller, answers, request, sequence, System.nanoTime(), false, refused,
            retryUntil));
    }

    /**
     * One attempt at a call issued at {@code issued}: refused, it waits for its turn and tries again (until
     * {@code retryUntil}); served, answered or failed, it lets the next refused call try.
     *
     * @param again whether the call was refused before
     */
    private static Mono<Long> attempt(final Caller caller, final Answers answers, final byte[] request,
                                      final long sequence, final long issued, final boolean again,
                                      final RefusedCalls refused, final long retryUntil) {
        return caller.call(request)
            .defaultIfEmpty(Answers.NONE)
            .map(answer -> {
                final long roundTrip = System.nanoTime() - issued;
                answers.check(answer, sequence);
                return roundTrip;
            })
            .doOnNext(roundTrip -> refused.wake()) // before flatMap, told of the end, issues a new call
            .onErrorResume(error -> {
                if (answers.refusal(error) && System.nanoTime() < retryUntil) {
                    return refused.turn(again).then(Mono.defer(() -> attempt(caller, answers, request,
                        sequence, issued, true, refused, retryUntil)));
                }
                answers.failed(error);
                refused.wake();
                return Mono.empty();
            });
    }

    private static Results.RequestResponse result(final String transport, final int size, final String mode,
                                                  final int inFlight, final Histogram histogram,
                                                  final double callsPerSecond, final ProcessMeter.Usage usage,
                                                  final Answers answers) {
        final long calls = histogram.getTotalCount();
        return new Results.RequestResponse(transport, size, mode, inFlight, calls, callsPerSecond,
            PingPongWorkload.percentiles(histogram), PingPongWorkload.curve(histogram),
            usage.cpuNanosPer(calls) / 1000.0, usage.allocatedBytesPer(calls), answers.checked(), answers.refused(),
            answers.wrong(), answers.failed(), answers.firstFailure());
    }

    /** Closes the connection and then the server, each waiting for {@code onDispose()} at most the setup timeout. */
    static void close(final Connection connection, final DisposableServer server) {
        try {
            if (connection != null) {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(SETUP_TIMEOUT);
            }
        } finally {
            server.dispose();
            server.onDispose().onErrorComplete().block(SETUP_TIMEOUT);
        }
    }
}
