package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.MessageHandler;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;

/**
 * A consumer that checks every message: its length, and the sequence number in its first 8 bytes, which must be
 * exactly one more than the previous one. Gaps count as lost messages, anything else as out of order; nothing is
 * assumed. Optionally throttled: message {@code n} is not taken before the pacer says it is due (the consumer
 * parks its thread, which is the transport's receiving thread).
 */
final class SequenceChecker implements MessageHandler {

    private final int length;
    private final AtomicLong received = new AtomicLong();
    private volatile Pacer pacer;
    private long expected;
    private long lost;
    private long outOfOrder;
    private long wrongLength;

    SequenceChecker(final int length) {
        this.length = length;
    }

    /** Throttles the consumer from now on to {@code perSecond} messages a second; {@code <= 0} stops throttling. */
    void throttle(final double perSecond) {
        rate = perSecond;
        pacer = null;
        throttledFrom = received.get();
    }

    private volatile double rate;
    private volatile long throttledFrom;

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length) {
        Pacer throttle = pacer;
        if (throttle == null && rate > 0) {
            // the schedule starts at the first message, so time spent connecting earns no burst
            throttle = new Pacer(System.nanoTime(), rate);
            pacer = throttle;
        }
        if (throttle != null) {
            final long due = throttle.due(received.get() - throttledFrom);
            long now;
            while ((now = System.nanoTime()) < due) {
                java.util.concurrent.locks.LockSupport.parkNanos(due - now);
            }
        }
        if (length != this.length || length < Long.BYTES) {
            wrongLength++;
        } else {
            final long sequence = buffer.getLong(offset);
            if (sequence == expected) {
                expected = sequence + 1;
            } else if (sequence > expected) {
                lost += sequence - expected;
                expected = sequence + 1;
            } else {
                outOfOrder++;
            }
        }
        received.lazySet(received.get() + 1);
    }

    long received() {
        return received.get();
    }

    /** @return messages whose sequence numbers were skipped (read after the consumer has stopped) */
    long gaps() {
        return lost;
    }

    long outOfOrder() {
        return outOfOrder;
    }

    long wrongLength() {
        return wrongLength;
    }
}
