package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Session;
import io.rdmareactive.perf.compare.transport.SessionSpec;
import io.rdmareactive.perf.compare.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A producer as fast as the transport lets it, against a consumer throttled to a set rate: the producer's achieved
 * rate (it should fall to the consumer's), heap and resident memory sampled every 100 ms (they should stay flat),
 * and messages lost, counted from the sequence numbers after the throttle is lifted and the backlog drained
 * (expected 0).
 */
final class BackpressureWorkload {

    private BackpressureWorkload() {
    }

    static Results.Backpressure run(final Transport transport, final Settings settings, final Progress.Point progress)
        throws Exception {
        final int size = settings.backpressureSize();
        final SequenceChecker consumer = new SequenceChecker(size);
        consumer.throttle(settings.consumerRate());
        final List<Results.MemorySample> memory = new ArrayList<>();
        try (Session session = transport.open(SessionSpec.consume(1, size, stream -> consumer))) {
            final long start = System.nanoTime();
            final long total = settings.warmUp().toMillis() + settings.duration().toMillis();
            final Producers producers = new Producers(transport.name(), session, 1, size, settings.idle());
            long sentBefore = 0;
            long receivedBefore = 0;
            long windowStart = start;
            try {
                long elapsed;
                boolean measuring = false;
                while ((elapsed = (System.nanoTime() - start) / 1_000_000) < total) {
                    if (!measuring && elapsed >= settings.warmUp().toMillis()) {
                        measuring = true;
                        sentBefore = producers.sent();
                        receivedBefore = consumer.received();
                        windowStart = System.nanoTime();
                    }
                    memory.add(new Results.MemorySample(elapsed / 1000.0, ProcessMeter.heapUsed(),
                        ProcessFootprint.residentBytes()));
                    progress.at(elapsed);
                    producers.check();
                    Thread.sleep(100);
                }
            } finally {
                producers.close();
            }
            producers.check();
            final double seconds = (System.nanoTime() - windowStart) / 1e9;
            final long sent = producers.sent();
            final long receivedAtStop = consumer.received();
            consumer.throttle(0);
            Waiting.until(() -> consumer.received() >= sent, TimeUnit.SECONDS.toMillis(30));
            final long received = consumer.received();
            final SequenceChecker[] consumers = {consumer};
            return new Results.Backpressure(transport.name(), size, settings.consumerRate(),
                (sent - sentBefore) / seconds, (receivedAtStop - receivedBefore) / seconds, sent, received,
                ThroughputWorkload.lost(sent, received, consumers), consumer.outOfOrder() + consumer.wrongLength(),
                memory.stream().mapToLong(Results.MemorySample::heapUsedBytes).max().orElse(0),
                memory.stream().mapToLong(Results.MemorySample::rssBytes).max().orElse(0), memory);
        }
    }
}
