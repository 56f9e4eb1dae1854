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
 * All-to-all: each of N parties sends to every other. Party {@code j}'s receiving side is one session of the
 * transport (one server) with a stream from each other party; party {@code i}'s sending side is one thread that
 * offers to its N - 1 destinations in turn ({@link RoundRobinSenders}). Reports the aggregate throughput of the
 * measured window and the slowest and fastest ordered pair. Every message is checked (length, sequence number per
 * pair) and, after the window, every one sent must arrive.
 */
final class AllToAllWorkload {

    private AllToAllWorkload() {
    }

    /** @return which party sends on stream {@code stream} of party {@code to}'s session */
    static int source(final int to, final int stream) {
        return stream < to ? stream : stream + 1;
    }

    /** @return the stream of party {@code to}'s session that party {@code from} sends on */
    static int stream(final int from, final int to) {
        return from < to ? from : from - 1;
    }

    static Results.AllToAll run(final Transport transport, final int parties, final int size,
                                final Settings settings, final Progress.Point progress) throws Exception {
        final SequenceChecker[][] checkers = new SequenceChecker[parties][parties - 1];
        final List<Session> sessions = new ArrayList<>();
        try {
            for (int to = 0; to < parties; to++) {
                final SequenceChecker[] mine = checkers[to];
                for (int s = 0; s < parties - 1; s++) {
                    mine[s] = new SequenceChecker(size);
                }
                sessions.add(transport.open(SessionSpec.consume(parties - 1, size, stream -> mine[stream])));
            }
            final List<List<Link>> links = new ArrayList<>();
            for (int from = 0; from < parties; from++) {
                final List<Link> mine = new ArrayList<>();
                for (int to = 0; to < parties; to++) {
                    if (to != from) {
                        mine.add(sessions.get(to).link(stream(from, to)));
                    }
                }
                links.add(mine);
            }
            final SequenceChecker[] all = Arrays.stream(checkers).flatMap(Arrays::stream)
                .toArray(SequenceChecker[]::new);
            final long[] before = new long[all.length];
            final long[] after = new long[all.length];
            final RoundRobinSenders senders = new RoundRobinSenders(transport.name(), links, size, settings.idle());
            long start;
            long end;
            try {
                final long warmUp = settings.warmUp().toMillis();
                Waiting.sleep(warmUp, 0, progress, senders::check);
                start = IncastWorkload.counts(all, before);
                Waiting.sleep(settings.duration().toMillis(), warmUp, progress, senders::check);
                end = IncastWorkload.counts(all, after);
            } finally {
                senders.close();
            }
            senders.check();
            final long sent = senders.sent();
            Waiting.until(() -> ThroughputWorkload.received(all) >= sent, TimeUnit.SECONDS.toMillis(30));
            final double seconds = (end - start) / 1e9;
            final List<double[]> pairs = new ArrayList<>();
            double total = 0;
            double min = Double.MAX_VALUE;
            double max = 0;
            for (int to = 0; to < parties; to++) {
                for (int s = 0; s < parties - 1; s++) {
                    final int index = to * (parties - 1) + s;
                    final double rate = (after[index] - before[index]) / seconds;
                    pairs.add(new double[] {source(to, s), to, rate});
                    total += rate;
                    min = Math.min(min, rate);
                    max = Math.max(max, rate);
                }
            }
            final long received = ThroughputWorkload.received(all);
            return new Results.AllToAll(transport.name(), parties, size, total, total * size, min, max, pairs, sent,
                received, ThroughputWorkload.lost(sent, received, all),
                Arrays.stream(all).mapToLong(c -> c.outOfOrder() + c.wrongLength()).sum());
        } finally {
            sessions.forEach(Session::close);
        }
    }
}
