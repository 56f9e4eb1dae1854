package io.rdmareactive.perf.compare;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.agrona.DirectBuffer;

/**
 * A peer-kill peer's record of what it received and of what its API reported: per source peer, the messages
 * received and checked (length, sequence number exactly one more than the last, the source named in the message);
 * and, per peer, the first report of a failure of the connection to or from it, printed at once on standard output
 * as {@code failed <peer> <nanoTime> <how>} (one clock for every process of the machine: {@code System.nanoTime()}
 * is {@code CLOCK_MONOTONIC} on Linux).
 */
final class PeerLedger {

    /** Where a message says who sent it: after its 8-byte sequence number. */
    static final int SOURCE_OFFSET = 8;

    private final int size;
    private final PrintStream out;
    private final AtomicLongArray received;
    private final long[] expected;
    private final AtomicLong gaps = new AtomicLong();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong wrong = new AtomicLong();
    private final boolean[] reported;

    PeerLedger(final int peers, final int size, final PrintStream out) {
        this.size = size;
        this.out = out;
        this.received = new AtomicLongArray(peers);
        this.expected = new long[peers];
        this.reported = new boolean[peers];
    }

    /** Checks one message; the messages of one source arrive on one connection, so on one thread at a time. */
    void onMessage(final DirectBuffer buffer, final int offset, final int length) {
        final int source = length == size ? buffer.getInt(offset + SOURCE_OFFSET) : -1;
        if (source < 0 || source >= expected.length) {
            wrong.incrementAndGet();
            return;
        }
        final long sequence = buffer.getLong(offset);
        if (sequence > expected[source]) {
            gaps.addAndGet(sequence - expected[source]);
        } else if (sequence < expected[source]) {
            duplicated.incrementAndGet();
        }
        expected[source] = Math.max(expected[source], sequence + 1);
        received.lazySet(source, received.get(source) + 1);
    }

    /** Reports the first failure the API gave about {@code peer}; later ones are ignored. */
    void failed(final int peer, final String how) {
        final long now = System.nanoTime();
        synchronized (reported) {
            if (reported[peer]) {
                return;
            }
            reported[peer] = true;
        }
        out.println("failed " + peer + " " + now + " " + how.replace('\n', ' '));
    }

    long received(final int source) {
        return received.get(source);
    }

    /** @return sequence numbers skipped, in any stream */
    long gaps() {
        return gaps.get();
    }

    /** @return messages whose sequence number was not above the last one of their stream */
    long duplicated() {
        return duplicated.get();
    }

    /** @return messages of the wrong length or naming no peer */
    long wrong() {
        return wrong.get();
    }
}
