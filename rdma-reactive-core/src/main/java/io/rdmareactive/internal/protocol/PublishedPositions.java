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

    /** @return true if this cycle looks at the published positions: the first one, or the peer's producers rang */
    boolean lookDue(final long now) {
        return scanPublished || doorbellRung(now);
    }

    /** Looks at every published position (a look that was due). @return work done */
    int look(final long now) {
        scanPublished = false;
        final int published = pollPublished();
        if (published > 0) {
            publishedAtNanos = now;
        }
        return published;
    }

    /**
     * Direct peer access: whether the peer's producers rang this connection's doorbell (line 0's published word,
     * set after a publish whenever they find it clear). Clearing it is a full fence before the published positions
     * are read, so a publish that found it still set is seen in this look.
     */
    private boolean doorbellRung(final long now) {
        if (lines.getLongVolatile(ConnectionLayout.LOOK_FLAG_OFFSET) == 0) {
            return false;
        }
        if (now - publishedAtNanos > LOOK_HOLD_NANOS) {
            lines.putLongVolatile(ConnectionLayout.LOOK_FLAG_OFFSET, 0);
        }
        // else the flag stays set while frames keep arriving, and the loop looks in every cycle: the peer's producers
        // find it set and write nothing to this side's line per commit (a write to a line this loop reads, which
        // cost more than the commit). It is cleared once frames stopped for LOOK_HOLD_NANOS, and looked once more.
        return true;
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
     * Direct peer access: how far the peer published frames into each data stream's receive ring (a long in the
     * stream's line, written by the peer's producers with a release store after the frames). A new position is checked
     * like an immediate's advance: it may not go backwards or beyond the room this side gave, and every new frame
     * must pass its checks.
     */
    int pollPublished() {
        int work = 0;
        for (int s = 1; s < maxStreams; s++) {
            final StreamReceiveRing ring = streams[s].receiveRing();
            final long published = lines.getLongVolatile(s * ConnectionLayout.LINE + ConnectionLayout.PUBLISHED_OFFSET);
            final long received = ring.receivedPosition();
            if (published == received) {
                continue;
            }
            final long advance = published - received;
            if (advance < 0 || advance > ringCapacity) {
                connection.fail(ProtocolError.describe(advance < 0 ? ProtocolError.ADVANCE_MISALIGNED
                    : ProtocolError.ADVANCE_BEYOND_RING) + " on stream " + s + " (published position " + published
                    + ", received " + received + ")");
                return work;
            }
            final int code = ring.onAdvance((int) advance);
            if (code != ProtocolError.NONE) {
                connection.fail(ProtocolError.describe(code, ring.frameCheck()) + " on stream " + s);
                return work;
            }
            liveness.onReceived(connection.nowNanos);
            WatchSet.activate(active, s);
            connection.activity.onFramesArrived(s);
            work++;
        }
        return work;
    }
}
