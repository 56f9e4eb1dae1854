package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.Link;
import io.rdmareactive.perf.compare.transport.MessageHandler;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Small probe messages at a fixed rate on a link of their own, and their receiving side: probe {@code n} is due at
 * {@code start + n / rate} and carries its sequence number and that due time; the receiver checks both and its
 * length, and records the time from when it was due to when it arrived (a probe held back by push-back counts from
 * when it should have left, so stalls are not hidden). Sender and receiver are in one JVM, so one clock serves both.
 */
@SuppressWarnings("try") // close joins the probe thread, so it may be interrupted
final class Probes implements MessageHandler, AutoCloseable {

    /** A probe's length: sequence number, due time, and 16 bytes that repeat the sequence number, inverted. */
    static final int SIZE = 32;

    private final Histogram histogram = new Histogram(PingPongWorkload.HIGHEST_NANOS, 3);
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;
    private long expected;
    private long wrong;

    /** Starts sending on {@code link} at {@code perSecond}. */
    Probes(final String name, final Link link, final double perSecond, final Idle idle) {
        final Pacer pacer = new Pacer(System.nanoTime(), perSecond);
        thread = Thread.ofPlatform().daemon().name(name + "-probe").start(() -> {
            try {
                send(link, pacer, idle.newStrategy());
            } catch (final Throwable ex) {
                failure = ex;
            }
        });
    }

    private void send(final Link link, final Pacer pacer, final IdleStrategy idle) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[SIZE]);
        for (long n = 0; running; n++) {
            final long due = pacer.due(n);
            long now;
            while ((now = System.nanoTime()) < due && running) {
                link.poll();
                LockSupport.parkNanos(Math.min(due - now, 100_000));
            }
            payload.putLong(0, n);
            payload.putLong(8, due);
            payload.putLong(16, ~n);
            payload.putLong(24, ~n);
            idle.reset();
            while (!link.offer(payload, 0, SIZE)) {
                if (!running) {
                    return;
                }
                link.poll();
                idle.idle();
            }
            sent.lazySet(n + 1);
        }
    }

    /** Records the probes due from now on, until {@link #stopRecording()}. */
    void startRecording() {
        windowStart = System.nanoTime();
    }

    /** Records no probe due from now on. */
    void stopRecording() {
        windowEnd = System.nanoTime();
    }

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length) {
        final long arrived = System.nanoTime();
        final long sequence = length == SIZE ? buffer.getLong(offset) : -1;
        if (sequence != expected || buffer.getLong(offset + 16) != ~sequence
            || buffer.getLong(offset + 24) != ~sequence) {
            wrong++;
        } else {
            final long due = buffer.getLong(offset + 8);
            if (due >= windowStart && due < windowEnd) {
                histogram.recordValue(Math.min(arrived - due, PingPongWorkload.HIGHEST_NANOS));
            }
        }
        expected = sequence + 1;
        received.lazySet(received.get() + 1);
    }

    long sent() {
        return sent.get();
    }

    long received() {
        return received.get();
    }

    /** @return probes of the wrong length, sequence number or contents (read once the receiver is done) */
    long wrong() {
        return wrong;
    }

    /** @return the recorded probes' latencies (read once the receiver is done) */
    Histogram histogram() {
        return histogram;
    }

    /** @throws IllegalStateException if the probe sender failed */
    void check() {
        if (failure != null) {
            throw new IllegalStateException("the probe sender failed: " + failure, failure);
        }
    }

    /** Stops sending and waits for the sender. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
    }
}
