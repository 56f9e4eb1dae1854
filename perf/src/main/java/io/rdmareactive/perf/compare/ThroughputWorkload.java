package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Session;
import io.rdmareactive.perf.compare.transport.SessionSpec;
import io.rdmareactive.perf.compare.transport.Transport;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Producers as fast as each transport lets them, consumers that only check sequence numbers: messages and bytes per
 * second received in the measured window (after the warm-up), and the process's CPU time and heap allocation per
 * message over that window. After the window the producers stop and every message sent must arrive.
 */
final class ThroughputWorkload {

    private ThroughputWorkload() {
    }

    static Results.Throughput run(final Transport transport, final int size, final int streams,
                                  final Settings settings, final Progress.Point progress) throws Exception {
        final SequenceChecker[] consumers = new SequenceChecker[streams];
        for (int i = 0; i < streams; i++) {
            consumers[i] = new SequenceChecker(size);
        }
        try (Session session = transport.open(SessionSpec.consume(streams, size, stream -> consumers[stream]))) {
            final Producers producers = new Producers(transport.name(), session, streams, size, settings.idle());
            final long warmUp = settings.warmUp().toMillis();
            ProcessMeter.Reading before;
            ProcessMeter.Reading after;
            long receivedBefore;
            long receivedAfter;
            try {
                Waiting.sleep(warmUp, 0, progress, producers::check);
                receivedBefore = received(consumers);
                before = ProcessMeter.read();
                Waiting.sleep(settings.duration().toMillis(), warmUp, progress, producers::check);
                receivedAfter = received(consumers);
                after = ProcessMeter.read();
            } finally {
                producers.close();
            }
            producers.check();
            final long sent = producers.sent();
            Waiting.until(() -> received(consumers) >= sent, TimeUnit.SECONDS.toMillis(30));
            final ProcessMeter.Usage usage = after.since(before);
            final long messages = receivedAfter - receivedBefore;
            final double seconds = usage.elapsedNanos() / 1e9;
            final long received = received(consumers);
            return new Results.Throughput(transport.name(), size, streams, messages / seconds,
                messages * (double) size / seconds, usage.cpuNanosPer(messages), usage.allocatedBytesPer(messages),
                usage.gcCount(), sent, received, lost(sent, received, consumers), Arrays.stream(consumers)
                .mapToLong(c -> c.outOfOrder() + c.wrongLength()).sum());
        }
    }

    /** @return messages that never arrived: the larger of the shortfall and the gaps in the sequence numbers */
    static long lost(final long sent, final long received, final SequenceChecker[] consumers) {
        return Math.max(sent - received, Arrays.stream(consumers).mapToLong(SequenceChecker::gaps).sum());
    }

    static long received(final SequenceChecker[] consumers) {
        long total = 0;
        for (final SequenceChecker consumer : consumers) {
            total += consumer.received();
        }
        return total;
    }
}
