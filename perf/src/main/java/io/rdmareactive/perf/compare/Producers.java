package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.Link;
import io.rdmareactive.perf.compare.transport.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One producer thread per stream, each offering sequence-numbered messages as fast as its link accepts them,
 * polling the link and idling with the run's strategy when it pushes back.
 */
final class Producers implements AutoCloseable {

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong[] sent;
    private final Throwable[] failures;
    private volatile boolean running = true;

    Producers(final String name, final Session session, final int streams, final int size, final Idle idle) {
        this.sent = new AtomicLong[streams];
        this.failures = new Throwable[streams];
        for (int stream = 0; stream < streams; stream++) {
            final int s = stream;
            sent[s] = new AtomicLong();
            final Link link = session.link(stream);
            threads.add(Thread.ofPlatform().daemon().name(name + "-producer-" + stream).start(() -> {
                try {
                    produce(link, size, idle.newStrategy(), sent[s]);
                } catch (final Throwable ex) {
                    failures[s] = ex;
                }
            }));
        }
    }

    private void produce(final Link link, final int size, final IdleStrategy idle, final AtomicLong count) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        long sequence = 0;
        while (running) {
            payload.putLong(0, sequence);
            if (link.offer(payload, 0, size)) {
                count.lazySet(++sequence);
                idle.reset();
            } else {
                link.poll();
                idle.idle();
            }
        }
        // keep polling until the link has taken nothing more for a while: credits and completions still arrive
        for (int i = 0; i < 1000; i++) {
            link.poll();
        }
    }

    long sent() {
        long total = 0;
        for (final AtomicLong count : sent) {
            total += count.get();
        }
        return total;
    }

    long sent(final int stream) {
        return sent[stream].get();
    }

    /** Stops the producers and waits for them. */
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

    /** @throws IllegalStateException naming the first failure of a producer */
    void check() {
        for (final Throwable failure : failures) {
            if (failure != null) {
                throw new IllegalStateException("a producer failed: " + failure, failure);
            }
        }
    }
}
