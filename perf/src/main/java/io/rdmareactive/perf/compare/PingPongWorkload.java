package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.Link;
import io.rdmareactive.perf.compare.transport.MessageHandler;
import io.rdmareactive.perf.compare.transport.Session;
import io.rdmareactive.perf.compare.transport.SessionSpec;
import io.rdmareactive.perf.compare.transport.Transport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Round trips, one message in flight: the calling thread sends a message carrying its sequence number, waits for
 * the echo (polling the link, idling with the run's strategy) and records the time into an HdrHistogram. Closed
 * loop: the next message leaves as soon as the echo is back. Fixed rate: message {@code n} is due at
 * {@code start + n / rate}; its round trip is recorded from when it was due (corrected for coordinated omission),
 * and also, for comparison, from when it left.
 */
final class PingPongWorkload {

    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final double[] CURVE = {0, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999, 100};
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private PingPongWorkload() {
    }

    /** The echoes' side: checks each echo's sequence number and length, and publishes the last one seen. */
    private static final class Echoes implements MessageHandler {
        private final int size;
        private volatile long lastSequence = -1;
        private long wrong;

        Echoes(final int size) {
            this.size = size;
        }

        @Override
        public void onMessage(final DirectBuffer buffer, final int offset, final int length) {
            final long sequence = buffer.getLong(offset);
            if (length != size || sequence != lastSequence + 1) {
                wrong++;
            }
            lastSequence = sequence;
        }
    }

    /**
     * Runs the closed loop and then the fixed-rate loop on one session.
     *
     * @return the closed-loop and the fixed-rate result
     */
    static List<Results.Latency> run(final Transport transport, final int size, final Settings settings,
                                     final Progress.Point progress) throws Exception {
        final Echoes echoes = new Echoes(size);
        final List<Results.Latency> results = new ArrayList<>();
        try (Session session = transport.open(SessionSpec.echo(size, echoes))) {
            final Loop loop = new Loop(session.link(0), echoes, size, settings.idle().newStrategy());
            final long phase = settings.warmUp().toMillis() + settings.duration().toMillis();
            loop.run(settings.warmUp().toNanos(), 0, null, null, progress, 0);
            final Histogram closed = new Histogram(HIGHEST_NANOS, 3);
            ProcessMeter.Reading before = ProcessMeter.read();
            long count = loop.run(settings.duration().toNanos(), 0, closed, null, progress,
                settings.warmUp().toMillis());
            ProcessMeter.Usage usage = ProcessMeter.read().since(before);
            results.add(result(transport, size, "closed-loop", 0, closed, null, usage, count, echoes.wrong));
            if (settings.fixedRate() > 0) {
                final Histogram corrected = new Histogram(HIGHEST_NANOS, 3);
                final Histogram uncorrected = new Histogram(HIGHEST_NANOS, 3);
                before = ProcessMeter.read();
                count = loop.run(settings.duration().toNanos(), settings.fixedRate(), corrected, uncorrected, progress,
                    phase);
                usage = ProcessMeter.read().since(before);
                results.add(result(transport, size, "fixed-rate", settings.fixedRate(), corrected, uncorrected,
                    usage, count, echoes.wrong));
            }
        }
        return results;
    }

    private static Results.Latency result(final Transport transport, final int size, final String mode,
                                          final double rate, final Histogram histogram, final Histogram uncorrected,
                                          final ProcessMeter.Usage usage, final long count, final long wrong) {
        return new Results.Latency(transport.name(), size, mode, rate, histogram.getTotalCount(),
            percentiles(histogram), curve(histogram), uncorrected == null ? null : percentiles(uncorrected),
            usage.cpuNanosPer(count) / 1000.0, usage.allocatedBytesPer(count), wrong);
    }

    /** @return p50, p90, p99, p99.9, p99.99 and max, in microseconds */
    static Map<String, Double> percentiles(final Histogram histogram) {
        final Map<String, Double> map = new LinkedHashMap<>();
        map.put("p50", histogram.getValueAtPercentile(50) / 1000.0);
        map.put("p90", histogram.getValueAtPercentile(90) / 1000.0);
        map.put("p99", histogram.getValueAtPercentile(99) / 1000.0);
        map.put("p99.9", histogram.getValueAtPercentile(99.9) / 1000.0);
        map.put("p99.99", histogram.getValueAtPercentile(99.99) / 1000.0);
        map.put("max", histogram.getMaxValue() / 1000.0);
        return map;
    }

    static List<double[]> curve(final Histogram histogram) {
        final List<double[]> points = new ArrayList<>();
        for (final double percentile : CURVE) {
            final long value = percentile == 100 ? histogram.getMaxValue() : histogram.getValueAtPercentile(percentile);
            points.add(new double[] {percentile, value / 1000.0});
        }
        return points;
    }

    /** The ping's loop, on the calling thread. */
    private static final class Loop {
        private final Link link;
        private final Echoes echoes;
        private final int size;
        private final IdleStrategy idle;
        private final UnsafeBuffer payload;
        private long sequence;

        Loop(final Link link, final Echoes echoes, final int size, final IdleStrategy idle) {
            this.link = link;
            this.echoes = echoes;
            this.size = size;
            this.idle = idle;
            final byte[] bytes = new byte[size];
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte) (i * 31);
            }
            this.payload = new UnsafeBuffer(bytes);
        }

        /** @return how many round trips were made */
        long run(final long nanos, final double rate, final Histogram histogram, final Histogram uncorrected,
                 final Progress.Point progress, final long progressBaseMillis) {
            final long start = System.nanoTime();
            final long end = start + nanos;
            final Pacer pacer = rate > 0 ? new Pacer(start, rate) : null;
            long count = 0;
            long nextReport = start;
            for (long now = start; now < end; count++) {
                long due = now;
                if (pacer != null) {
                    due = pacer.due(count);
                    idle.reset();
                    while (System.nanoTime() < due) {
                        link.poll();
                        idle.idle();
                    }
                }
                final long sent = roundTrip();
                now = System.nanoTime();
                if (histogram != null) {
                    histogram.recordValue(Math.min(now - (pacer != null ? due : sent), HIGHEST_NANOS));
                    if (uncorrected != null) {
                        uncorrected.recordValue(Math.min(now - sent, HIGHEST_NANOS));
                    }
                }
                if (now >= nextReport) {
                    progress.at(progressBaseMillis + (now - start) / 1_000_000);
                    nextReport = now + 100_000_000;
                }
            }
            return count;
        }

        /** @return when the message was offered */
        private long roundTrip() {
            final long current = sequence++;
            payload.putLong(0, current);
            final long sent = System.nanoTime(); // the offer is part of the round trip
            final long deadline = sent + TIMEOUT_NANOS;
            idle.reset();
            while (!link.offer(payload, 0, size)) {
                link.poll();
                idle.idle();
                checkDeadline(deadline, -1);
            }
            idle.reset();
            while (echoes.lastSequence < current) {
                if (link.poll() == 0) {
                    idle.idle();
                    checkDeadline(deadline, current);
                }
            }
            return sent;
        }

        /**
         * @param echoOf the message whose echo is awaited, or -1 while sending; the description is made only on
         *               failure, as this runs on every idle turn of the loop (a string per turn was most of the
         *               harness's allocation per round trip)
         */
        private static void checkDeadline(final long deadline, final long echoOf) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no progress for 10 s while "
                    + (echoOf < 0 ? "sending" : "waiting for the echo of message " + echoOf));
            }
        }
    }
}
