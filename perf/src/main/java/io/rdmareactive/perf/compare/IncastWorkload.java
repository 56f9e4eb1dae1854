package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Link;
import io.rdmareactive.perf.compare.transport.Session;
import io.rdmareactive.perf.compare.transport.SessionSpec;
import io.rdmareactive.perf.compare.transport.Transport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Incast: N senders, each a thread with a stream of its own, to one receiver (one session: one server), each as fast
 * as back-pressure lets it, with bulk messages; beside them a probe stream of small messages at a fixed low rate
 * ({@link Probes}) to the same receiver. Reports the aggregate throughput of the measured window, each sender's
 * share of it, Jain's fairness index over the senders' rates, and the probes' latency from when each was due to its
 * arrival. Every bulk message is checked (length, sequence number) and, after the window, every one sent must
 * arrive.
 */
final class IncastWorkload {

    private IncastWorkload() {
    }

    @SuppressWarnings("try") // the probes' close joins their thread and may be interrupted: the caller handles it
    static Results.Incast run(final Transport transport, final int senders, final Settings settings,
                              final Progress.Point progress) throws Exception {
        final Traffic traffic = settings.traffic();
        final int size = traffic.incastSize();
        final SequenceChecker[] bulk = new SequenceChecker[senders];
        for (int i = 0; i < senders; i++) {
            bulk[i] = new SequenceChecker(size);
        }
        final Probes[] probe = new Probes[1];
        try (Session session = transport.open(SessionSpec.consume(senders + 1, size,
            stream -> stream < senders ? bulk[stream] : (buffer, offset, length) -> probe[0].onMessage(buffer,
                offset, length)))) {
            final List<List<Link>> parties = new ArrayList<>();
            for (int i = 0; i < senders; i++) {
                parties.add(List.of(session.link(i)));
            }
            probe[0] = new Probes(transport.name(), session.link(senders), traffic.probeRate(), settings.idle());
            final RoundRobinSenders senderThreads = new RoundRobinSenders(transport.name(), parties, size,
                settings.idle());
            final long warmUp = settings.warmUp().toMillis();
            final long[] before = new long[senders];
            final long[] after = new long[senders];
            long start;
            long end;
            try (Probes probes = probe[0]) {
                final Runnable check = () -> {
                    senderThreads.check();
                    probes.check();
                };
                Waiting.sleep(warmUp, 0, progress, check);
                probes.startRecording();
                start = counts(bulk, before);
                Waiting.sleep(settings.duration().toMillis(), warmUp, progress, check);
                end = counts(bulk, after);
                probes.stopRecording();
            } finally {
                senderThreads.close();
            }
            senderThreads.check();
            probe[0].check();
            final long sent = senderThreads.sent();
            final long probesSent = probe[0].sent();
            Waiting.until(() -> ThroughputWorkload.received(bulk) >= sent && probe[0].received() >= probesSent,
                TimeUnit.SECONDS.toMillis(30));
            final double seconds = (end - start) / 1e9;
            final double[] rates = new double[senders];
            for (int i = 0; i < senders; i++) {
                rates[i] = (after[i] - before[i]) / seconds;
            }
            final double total = Arrays.stream(rates).sum();
            final long received = ThroughputWorkload.received(bulk);
            return new Results.Incast(transport.name(), senders, size, traffic.probeRate(), total, total * size,
                Arrays.stream(rates).boxed().toList(),
                Arrays.stream(rates).map(rate -> total > 0 ? rate / total : Double.NaN).boxed().toList(),
                jain(rates), probe[0].histogram().getTotalCount(), PingPongWorkload.percentiles(probe[0].histogram()),
                sent, received, ThroughputWorkload.lost(sent, received, bulk),
                Arrays.stream(bulk).mapToLong(c -> c.outOfOrder() + c.wrongLength()).sum(), probesSent,
                probe[0].received(), probe[0].wrong());
        }
    }

    /** Reads every consumer's count into {@code counts}; returns when. */
    static long counts(final SequenceChecker[] consumers, final long[] counts) {
        for (int i = 0; i < consumers.length; i++) {
            counts[i] = consumers[i].received();
        }
        return System.nanoTime();
    }

    /**
     * Jain's fairness index, {@code (sum x)^2 / (n * sum x^2)}: 1 when every sender got the same, {@code 1/n} when
     * one got everything.
     *
     * @return the index, or NaN when nothing was sent
     */
    static double jain(final double[] rates) {
        double sum = 0;
        double squares = 0;
        for (final double rate : rates) {
            sum += rate;
            squares += rate * rate;
        }
        return squares > 0 ? sum * sum / (rates.length * squares) : Double.NaN;
    }
}
