package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.Link;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One sending thread per party, each offering sequence-numbered messages (a sequence of its own per link) to each of
 * its links in turn, as fast as they accept them: a link that pushes back is polled and passed over until the next
 * turn, so one slow destination does not hold back the others; the thread idles only when a whole turn sent nothing.
 * With one link per party this is a set of independent producers (incast's senders); with a link to every other
 * party, all-to-all.
 */
final class RoundRobinSenders implements AutoCloseable {

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLongArray[] sent;
    private final Throwable[] failures;
    private volatile boolean running = true;

    /**
     * Starts the threads.
     *
     * @param parties each party's links, in the order it sends to them
     */
    RoundRobinSenders(final String name, final List<List<Link>> parties, final int size, final Idle idle) {
        this.sent = new AtomicLongArray[parties.size()];
        this.failures = new Throwable[parties.size()];
        for (int party = 0; party < parties.size(); party++) {
            final int p = party;
            final Link[] links = parties.get(party).toArray(Link[]::new);
            sent[p] = new AtomicLongArray(links.length);
            threads.add(Thread.ofPlatform().daemon().name(name + "-sender-" + party).start(() -> {
                try {
                    send(links, size, idle.newStrategy(), sent[p]);
                } catch (final Throwable ex) {
                    failures[p] = ex;
                }
            }));
        }
    }

    private void send(final Link[] links, final int size, final IdleStrategy idle, final AtomicLongArray counts) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        final long[] sequences = new long[links.length];
        while (running) {
            boolean any = false;
            for (int i = 0; i < links.length; i++) {
                payload.putLong(0, sequences[i]);
                if (links[i].offer(payload, 0, size)) {
                    counts.lazySet(i, ++sequences[i]);
                    any = true;
                } else {
                    links[i].poll();
                }
            }
            if (any) {
                idle.reset();
            } else {
                idle.idle();
            }
        }
        // credits and completions still arrive for a while after the last offer
        for (int i = 0; i < 1000; i++) {
            for (final Link link : links) {
                link.poll();
            }
        }
    }

    /** @return messages {@code party} sent on its {@code link}th link */
    long sent(final int party, final int link) {
        return sent[party].get(link);
    }

    /** @return messages sent by every party on every link */
    long sent() {
        long total = 0;
        for (final AtomicLongArray counts : sent) {
            for (int i = 0; i < counts.length(); i++) {
                total += counts.get(i);
            }
        }
        return total;
    }

    /** Stops the threads and waits for them. */
    @Override
    public void close() {
        running = false;
        for (final Thread thread : threads) {
            try {
                thread.join(30_000);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @throws IllegalStateException naming the first failure of a sender */
    void check() {
        for (final Throwable failure : failures) {
            if (failure != null) {
                throw new IllegalStateException("a sender failed: " + failure, failure);
            }
        }
    }
}
