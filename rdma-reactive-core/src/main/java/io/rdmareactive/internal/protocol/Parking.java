package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.QueuePair;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Parking one connection, with direct peer access: the doorbells both ways (this side's, in its loop's
 * {@link Doorbells} page, described to the peer; the peer's, mapped here and acknowledged), whether the loop may stop
 * polling the connection, and when it must poll it again. Loop only; not on the per-message path.
 */
final class Parking {

    private final ProtocolConnection connection;
    /** The connection's own protection domain: its regions and queue pair are in it, no other connection's. */
    private final ProtectionDomain domain;
    private final QueuePair queuePair;
    /** The lines the peer writes into: this side describes its doorbell there, and the peer acknowledges. */
    private final AtomicBuffer lines;
    /** The streams producers and consumers touched since the loop last looked. */
    private final StreamMarks marks;
    private final Liveness liveness;
    /** What is in flight: a parked connection has no send outstanding and no grant to write. */
    private final Posting posting;
    /** The watch set's words ({@link WatchSet#active}): a parked connection watches no stream. */
    private final long[] active;
    /** The peer may publish data straight into this side's rings: poll the published positions. */
    private final boolean pollPublished;
    /** Direct peer access: how this side tells the peer's loop to look; null without. */
    private final PeerDoorbell peerDoorbell;
    /** Direct peer access: the peer's lines, mapped here (its doorbell's description, this side's acknowledgement). */
    private final AtomicBuffer peerLines;
    /** The peer's doorbell description was unusable: it is not rung, and the peer never parks this connection. */
    private boolean peerDoorbellUnusable;
    /** This side's doorbell in its loop's page, or -1 (loop). */
    private int doorbell = -1;
    /** The loop's doorbell page registered in this connection's domain, or null (loop). */
    private MemoryRegion doorbellRegion;

    Parking(final ProtocolConnection connection, final ProtectionDomain domain, final QueuePair queuePair,
            final AtomicBuffer lines, final StreamMarks marks, final Liveness liveness, final Posting posting,
            final long[] active, final boolean pollPublished, final PeerDoorbell peerDoorbell,
            final AtomicBuffer peerLines) {
        this.connection = connection;
        this.domain = domain;
        this.queuePair = queuePair;
        this.lines = lines;
        this.marks = marks;
        this.liveness = liveness;
        this.posting = posting;
        this.active = active;
        this.pollPublished = pollPublished;
        this.peerDoorbell = peerDoorbell;
        this.peerLines = peerLines;
    }

    /**
     * Gives the connection its doorbell in its loop's page (the loop, before it may park it; direct peer access only):
     * the page registered in this connection's protection domain, described in this side's line 1 for the peer, which
     * maps it and acknowledges.
     *
     * @return false if the page could not be registered for it: it has no doorbell then
     */
    boolean doorbell(final Doorbells doorbells, final int number) {
        final MemoryRegion registered;
        try {
            registered = doorbells.registerIn(domain); // the peer reaches nothing outside this connection's domain
        } catch (final RuntimeException ex) {
            return false; // no registration to be had (a limit): the loop polls this connection in every cycle
        }
        doorbellRegion = registered;
        doorbell = number;
        marks.doorbell(doorbells.page(), number);
        lines.putLong(ConnectionLayout.DOORBELL_ADDRESS_OFFSET, registered.address());
        lines.putInt(ConnectionLayout.DOORBELL_KEY_OFFSET, registered.rkey());
        lines.putIntVolatile(ConnectionLayout.DOORBELL_NUMBER_OFFSET, number + 1);
        return true;
    }

    /**
     * Gives a connection that parks on its completions (verbs) its doorbell in its loop's page (loop): nothing is
     * described to the peer, which reaches this side only through work that completes here; this side's producers and
     * consumers ring it, and so does a completion the queue was armed for.
     */
    void localDoorbell(final Doorbells doorbells, final int number) {
        doorbell = number;
        local = true;
        marks.doorbell(doorbells.page(), number);
    }

    /** The doorbell is this process's alone ({@link #localDoorbell}): parking waits on the completion queue. */
    private boolean local;

    /** @return true if the connection uses direct peer access, and so may be parked once it has a doorbell */
    boolean mayUseDoorbell() {
        return pollPublished && peerDoorbell != null;
    }

    /** After the posts (loop): maps the peer's doorbell, until it is mapped or given up. */
    void tryMapPeerDoorbell() {
        if (peerDoorbell != null && !peerDoorbell.isMapped() && !peerDoorbellUnusable) {
            mapPeerDoorbell();
        }
    }

    /**
     * The peer described its doorbell in its line 1: map its page here (once, on the loop) and acknowledge, so that the
     * peer may park the connection from now on. A description that does not map (a hostile or broken peer) is given
     * up: then this side never rings, and the peer never parks.
     */
    private void mapPeerDoorbell() {
        final int number = peerLines.getIntVolatile(ConnectionLayout.DOORBELL_NUMBER_OFFSET) - 1;
        if (number < 0) {
            return; // not yet described
        }
        final long address = peerLines.getLong(ConnectionLayout.DOORBELL_ADDRESS_OFFSET);
        final int key = peerLines.getInt(ConnectionLayout.DOORBELL_KEY_OFFSET);
        final long mapped = number < Doorbells.CAPACITY
            ? queuePair.peerMemoryAddress(address, Doorbells.LENGTH, key) : 0;
        if (mapped == 0) {
            peerDoorbellUnusable = true;
            return;
        }
        peerDoorbell.mapped(new UnsafeBuffer(mapped, Doorbells.LENGTH), number);
        peerLines.putIntVolatile(ConnectionLayout.DOORBELL_ACK_OFFSET, number + 1);
    }

    /**
     * The loop would stop polling the connection (after duty cycles without work): it may when it has a doorbell the
     * peer acknowledged (a local doorbell: when its completion queue has been armed since the loop last polled it),
     * nothing is in flight or watched, the layer above has nothing noted, and, once the marks ring the doorbell from
     * now on, no stream was marked and the peer's look-flag is clear. From then on the connection is polled again when
     * its doorbell rings (a mark on this side, a write of the peer, a completion), at {@link #wakeDeadline()}, or for
     * a device event.
     *
     * @return true if parked
     */
    boolean park() {
        if (obstacleCode() != NO_OBSTACLE) {
            return false;
        }
        // a connection that parks on its completions parks only with its queue armed since the loop last polled it:
        // armed just now, it is polled once more first, for a completion that came before the arming
        if (local && connection.armWakeup()) {
            return false;
        }
        if (!marks.park()) {
            return false;
        }
        if (lines.getLongVolatile(ConnectionLayout.LOOK_FLAG_OFFSET) != 0) { // the peer wrote: look first
            marks.unpark();
            return false;
        }
        return true;
    }

    private static final int NO_OBSTACLE = 0;
    private static final int NO_DOORBELL = 1;
    private static final int NOT_ACKNOWLEDGED = 2;
    private static final int ENDING = 3;
    private static final int FLUSHED = 4;
    private static final int SENDS_OUTSTANDING = 5;
    private static final int GRANT_PENDING = 6;
    private static final int LAYER_BUSY = 7;
    private static final int WATCHED = 8;
    private static final int CANNOT_WAKE = 9;
    private static final int ONE_SIDED = 10;

    /** @return what keeps the connection from being parked now, the first found; {@link #NO_OBSTACLE} for none */
    private int obstacleCode() {
        if (doorbell < 0) {
            return NO_DOORBELL;
        }
        if (!local && lines.getIntVolatile(ConnectionLayout.DOORBELL_ACK_OFFSET) != doorbell + 1) {
            return NOT_ACKNOWLEDGED;
        }
        if (connection.isTerminated() || connection.peerClosing) {
            return ENDING;
        }
        if (connection.flushedSinceNanos != 0) {
            return FLUSHED;
        }
        if (posting.outstandingSends != 0) {
            return SENDS_OUTSTANDING;
        }
        if (posting.grantPending) {
            return GRANT_PENDING;
        }
        if (!connection.activity.isIdle()) {
            return LAYER_BUSY;
        }
        if (connection.hasOneSidedWork()) {
            return ONE_SIDED;
        }
        for (final long word : active) {
            if (word != 0) {
                return WATCHED;
            }
        }
        if (local && !connection.mayParkOnCompletions()) {
            return CANNOT_WAKE;
        }
        return NO_OBSTACLE;
    }

    /**
     * @return what keeps the connection from being parked now, or null if nothing does (diagnostics, any thread: a
     *     snapshot, as fields the loop writes may be a moment old)
     */
    String obstacle() {
        return switch (obstacleCode()) {
            case NO_DOORBELL -> "it has no doorbell";
            case NOT_ACKNOWLEDGED -> "the peer has not acknowledged its doorbell";
            case ENDING -> "it is ending";
            case FLUSHED -> "it was flushed";
            case SENDS_OUTSTANDING -> posting.outstandingSends + " sends outstanding";
            case GRANT_PENDING -> "a receive grant to write";
            case LAYER_BUSY -> "the streams' layer has work noted";
            case WATCHED -> "watched streams";
            case CANNOT_WAKE -> "its completion queue cannot wake the loop";
            case ONE_SIDED -> "one-sided operations waiting, in flight or to be delivered";
            default -> null;
        };
    }

    /** The loop polls the connection again (loop). */
    void unpark(final long now) {
        marks.unpark();
        liveness.resume(now);
    }

    /** @return when a parked connection must be polled again ({@link System#nanoTime()}): a keepalive, a silence */
    long wakeDeadline() {
        return liveness.nextDeadline();
    }

    /** Releases the doorbell page's registration in the connection's domain, if it has one (the connection closes). */
    void releaseDoorbell() {
        if (doorbellRegion != null) {
            doorbellRegion.close();
        }
    }
}
