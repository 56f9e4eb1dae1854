package io.rdmareactive.internal.protocol;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Direct peer access, arriving: the positions up to which the peer's producers published frames straight into this
 * side's receive rings, and the look-flag they set to have them read. The loop looks at every published position at
 * start and whenever the flag is set, and checks each new one like an immediate's advance. Loop only; allocates
 * nothing but the reason of an end.
 */
final class PublishedPositions {

    /** How long the look-flag stays set after the last published frame seen, the loop looking in every cycle. */
    private static final long LOOK_HOLD_NANOS = 16_000;

    private final ProtocolConnection connection;
    /** The lines the peer writes into: the published positions, and line 0's look-flag. */
    private final AtomicBuffer lines;
    private final ProtocolStream[] streams;
    private final int maxStreams;
    private final int ringCapacity;
    /** The watch set's words ({@link WatchSet#active}): a new position brings its stream into this cycle. */
    private final long[] active;
    private final Liveness liveness;
    /** Direct peer access: look at every published position in the next cycle (at start; the look-flag was set). */
    private boolean scanPublished = true;
    /** When the last look at the published positions found frames ({@link System#nanoTime()}). */
    private long publishedAtNanos;

    /** @param streams the connection's streams, filled in before the first duty cycle */
    PublishedPositions(final ProtocolConnection connection, final AtomicBuffer lines, final ProtocolStream[] streams,
                       final int ringCapacity, final long[] active, final Liveness liveness) {
        this.connection = connection;
        this.lines = lines;
        this.streams = streams;
        this.maxStreams = streams.length;
        this.ringCapacity = ringCapacity;
        this.active = active;
        this.liveness = liveness;
    }

    /**
     * @return the published positions this cycle looks at, as look-flag bits ({@link PeerDoorbell#streamBit}): all
     *     of them in the first cycle, else those the peer's producers rang for; 0 for none
     */
    long lookDue(final long now) {
        if (scanPublished) {
            scanPublished = false;
            return ALL;
        }
        return doorbellRung(now);
    }

    /** Looks at the published positions of the streams {@code bits} name (a look that was due). @return work done */
    int look(final long bits, final long now) {
        final int published = pollPublished(bits);
        if (published > 0) {
            publishedAtNanos = now;
        }
        return published;
    }

    /** Every stream, as look-flag bits. */
    static final long ALL = -1L;

    /**
     * Direct peer access: which streams the peer's producers rang for (line 0's published word, to which they add
     * their stream's bit after a publish whenever they find it missing). Taking the word with an atomic swap is a full
     * fence before the published positions are read, so a publish that found its bit still set is seen in this look.
     *
     * @return the bits to look at, or 0
     */
    private long doorbellRung(final long now) {
        final long bits = lines.getLongVolatile(ConnectionLayout.LOOK_FLAG_OFFSET);
        if (bits == 0) {
            return 0;
        }
        if (now - publishedAtNanos > LOOK_HOLD_NANOS) {
            return lines.getAndSetLong(ConnectionLayout.LOOK_FLAG_OFFSET, 0);
        }
        // else the flag stays set while frames keep arriving, and the loop looks at its streams in every cycle: the
        // peer's producers find their bit set and write nothing to this side's line per commit (a write to a line this
        // loop reads, which cost more than the commit). It is taken once frames stopped for LOOK_HOLD_NANOS, and its
        // streams looked at once more.
        return bits;
    }

    /**
     * @return true if the peer published frames into a data stream's ring that this side has not read yet (the loop's
     *     last look before its thread sleeps: one read of each data stream's published position)
     */
    boolean hasUnread() {
        for (int s = 1; s < maxStreams; s++) {
            if (lines.getLongVolatile(s * ConnectionLayout.LINE + ConnectionLayout.PUBLISHED_OFFSET)
                != streams[s].receiveRing().receivedPosition()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Direct peer access: how far the peer published frames into the receive rings of the data streams {@code bits}
     * name (bit {@code b} for streams {@code b}, {@code b + 64}, ...; bit 0 for streams 64, 128, ...): a long in the
     * stream's line, written by the peer's producers with a release store after the frames. A new position is checked
     * like an immediate's advance: it may not go backwards or beyond the room this side gave, and every new frame
     * must pass its checks. One cache line per stream looked at, and only those the peer rang for.
     */
    int pollPublished(final long bits) {
        int work = 0;
        long remaining = bits;
        while (remaining != 0) {
            final int bit = Long.numberOfTrailingZeros(remaining);
            remaining &= remaining - 1;
            for (int s = bit == 0 ? 64 : bit; s < maxStreams; s += 64) {
                final int found = pollStream(s);
                if (found < 0) {
                    return work;
                }
                work += found;
            }
        }
        return work;
    }

    /** @return 1 if stream {@code s} had frames published, 0 if not, -1 if the connection failed on them */
    private int pollStream(final int s) {
        final StreamReceiveRing ring = streams[s].receiveRing();
        final long published = lines.getLongVolatile(s * ConnectionLayout.LINE + ConnectionLayout.PUBLISHED_OFFSET);
        final long received = ring.receivedPosition();
        if (published == received) {
            return 0;
        }
        final long advance = published - received;
        if (advance < 0 || advance > ringCapacity) {
            connection.fail(ProtocolError.describe(advance < 0 ? ProtocolError.ADVANCE_MISALIGNED
                : ProtocolError.ADVANCE_BEYOND_RING) + " on stream " + s + " (published position " + published
                + ", received " + received + ")");
            return -1;
        }
        final int code = ring.onAdvance((int) advance);
        if (code != ProtocolError.NONE) {
            connection.fail(ProtocolError.describe(code, ring.frameCheck()) + " on stream " + s);
            return -1;
        }
        liveness.onReceived(connection.nowNanos);
        WatchSet.activate(active, s);
        connection.activity.onFramesArrived(s);
        return 1;
    }
}
