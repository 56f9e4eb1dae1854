package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.RemoteRegion;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Runs the rma workload's phases on one transport, each for the warm-up and then the measured time, reading the
 * server process's and this process's {@link ProcessMeter} around the measured window; adds each phase's result, or
 * its failure (a failed check included) instead.
 */
final class RmaPhases {

    static final String REQUEST_RESPONSE = "request-response";
    private static final Duration TIMEOUT = RequestResponseWorkload.CALL_TIMEOUT;

    private final String transport;
    private final ServerProcess server;
    private final Settings settings;
    private final Progress progress;
    private final List<Results.Rma> rows;
    private final List<Results.Failure> failures;

    RmaPhases(final String transport, final ServerProcess server, final Settings settings, final Progress progress,
              final List<Results.Rma> rows, final List<Results.Failure> failures) {
        this.transport = transport;
        this.server = server;
        this.settings = settings;
        this.progress = progress;
        this.rows = rows;
        this.failures = failures;
    }

    /** @return the planned time of one phase, for the progress bar */
    static long plannedMillis(final Settings settings) {
        return settings.warmUp().toMillis() + settings.duration().toMillis();
    }

    /** One operation in flight ({@link OneSidedLoop}). */
    void oneInFlight(final OneSidedOperations operations) {
        final Progress.Point at = point(operations.name(), operations.size(), 1);
        try {
            final OneSidedLoop loop = new OneSidedLoop(operations, settings.idle().newStrategy(), TIMEOUT.toNanos());
            loop.run(settings.warmUp().toNanos(), null, at, 0);
            final Histogram histogram = new Histogram(PingPongWorkload.HIGHEST_NANOS, 3);
            final Window window = Window.open(server);
            final long completed = loop.run(settings.duration().toNanos(), histogram, at,
                settings.warmUp().toMillis());
            window.close();
            operations.finish();
            rows.add(window.row(transport, operations.name(), operations.size(), 1, completed,
                PingPongWorkload.percentiles(histogram), operations.checked()));
        } catch (final Exception | Error ex) {
            fail(operations.name(), operations.size(), 1, ex);
        }
    }

    /** Up to {@code depth} operations in flight ({@link OneSidedWindow}). */
    void pipelined(final RemoteRegion remote, final OneSidedOperations operations, final int depth) {
        final Progress.Point at = point(operations.name(), operations.size(), depth);
        try {
            final OneSidedWindow pipeline = new OneSidedWindow(remote, operations, depth, TIMEOUT.toNanos());
            pipeline.run(settings.warmUp().toNanos(), at, 0);
            final Window window = Window.open(server);
            final OneSidedWindow.Outcome outcome = pipeline.run(settings.duration().toNanos(), at,
                settings.warmUp().toMillis());
            window.close();
            operations.finish();
            rows.add(window.row(transport, operations.name(), operations.size(), depth, outcome.completed(),
                Map.of(), operations.checked()));
        } catch (final Exception | Error ex) {
            fail(operations.name(), operations.size(), depth, ex);
        }
    }

    /**
     * Request-response calls of {@code size} bytes to the echo server at {@code address}, one in flight
     * ({@link ClosedLoopCalls}), on a connection of their own.
     */
    void requestResponse(final ReactiveTransport reactive, final String address, final int size) {
        final Progress.Point at = point(REQUEST_RESPONSE, size, 1);
        Connection connection = null;
        try {
            connection = reactive.client(address, size).requestTimeout(TIMEOUT).connect()
                .block(RequestResponseWorkload.SETUP_TIMEOUT);
            final Answers answers = new Answers(size);
            final ClosedLoopCalls calls = new ClosedLoopCalls(new Caller[] {Caller.of(connection)}, answers,
                settings.idle().newStrategy(), TIMEOUT.toNanos());
            calls.run(settings.warmUp().toNanos(), null, at, 0);
            final Histogram histogram = new Histogram(PingPongWorkload.HIGHEST_NANOS, 3);
            final Window window = Window.open(server);
            final long answered = calls.run(settings.duration().toNanos(), histogram, at,
                settings.warmUp().toMillis());
            window.close();
            if (answers.wrong() > 0 || answers.failed() > 0) {
                throw new IllegalStateException(answers.wrong() + " wrong answers, " + answers.failed()
                    + " failed calls; first failure: " + answers.firstFailure());
            }
            rows.add(window.row(transport, REQUEST_RESPONSE, size, 1, answered,
                PingPongWorkload.percentiles(histogram), answers.checked()));
        } catch (final Exception | Error ex) {
            fail(REQUEST_RESPONSE, size, 1, ex);
        } finally {
            if (connection != null) {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(RequestResponseWorkload.SETUP_TIMEOUT);
            }
        }
    }

    private Progress.Point point(final String operation, final int size, final int inFlight) {
        return progress.point(transport + " " + operation + " " + Report.bytes(size) + " x" + inFlight,
            plannedMillis(settings));
    }

    private void fail(final String operation, final int size, final int inFlight, final Throwable cause) {
        failures.add(new Results.Failure(transport, "rma " + operation + " " + Report.bytes(size) + " x" + inFlight,
            String.valueOf(cause)));
    }

    /** Both processes' meters around one measured window. */
    private static final class Window {

        private final ServerProcess server;
        private final ProcessMeter.Reading serverBefore;
        private final ProcessMeter.Reading clientBefore;
        private ProcessMeter.Usage serverUsage;
        private ProcessMeter.Usage clientUsage;

        private Window(final ServerProcess server, final ProcessMeter.Reading serverBefore,
                       final ProcessMeter.Reading clientBefore) {
            this.server = server;
            this.serverBefore = serverBefore;
            this.clientBefore = clientBefore;
        }

        static Window open(final ServerProcess server) throws java.io.IOException {
            final ProcessMeter.Reading serverBefore = server.meter();
            return new Window(server, serverBefore, ProcessMeter.read());
        }

        void close() throws java.io.IOException {
            clientUsage = ProcessMeter.read().since(clientBefore);
            serverUsage = server.meter().since(serverBefore);
        }

        Results.Rma row(final String transport, final String operation, final int size, final int inFlight,
                        final long operations, final Map<String, Double> percentiles, final long checked) {
            final double perSecond = operations / (clientUsage.elapsedNanos() / 1e9);
            return new Results.Rma(transport, operation, size, inFlight, operations, perSecond,
                perSecond * size / 1e6, percentiles, serverUsage.cpuNanosPer(operations),
                serverUsage.allocatedBytesPer(operations), clientUsage.cpuNanosPer(operations), checked);
        }
    }
}
