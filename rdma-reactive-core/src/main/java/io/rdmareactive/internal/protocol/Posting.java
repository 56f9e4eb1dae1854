package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Posting, for one connection: turns what its streams committed and the credit their consumers freed into work
 * requests on its queue pair (RDMA WRITE WITH IMMEDIATE for a stream's committed bytes, one work request, two where
 * the range wraps; RDMA WRITE for credit and the receive grant, or, with direct peer access, credit written straight
 * into the peer's lines), within the room of the send queue and the peer's
 * grant of receives; reposts this side's receives and grants them to the peer; and keeps the ids of the sends in the
 * order posted, against which {@link CompletionOrder} checks their completions. The application's one-sided
 * operations ({@link OneSidedQueue}) share the send queue's room and are checked the same way. Loop only; allocates
 * nothing.
 */
final class Posting {

    static final long KIND_DATA = 0L;
    static final long KIND_CREDIT = 1L << 62;
    static final long KIND_GRANT = 2L << 62;
    static final long KIND_MASK = 3L << 62;
    static final long POSITION_MASK = (1L << 48) - 1;

    private final ProtocolConnection connection;
    private final QueuePair queuePair;
    private final MemoryRegion local;
    private final long peerAddress;
    private final int peerRkey;
    private final int maxStreams;
    private final int ringCapacity;
    private final ProtocolStream[] streams;
    /** The watch set's words ({@link WatchSet#active}): the streams this cycle posts for. */
    private final long[] active;
    final SendWorkRequest sends;
    private final ReceiveWorkRequest receives;
    private final int maxOutstandingSends;
    /** The lines the peer writes into: its receive grant. */
    private final AtomicBuffer lines;
    /** This side's copies of the words it writes into the peer's lines (credit, grant, goodbye). */
    final AtomicBuffer staging;
    private final Liveness liveness;
    /** Direct peer access: how this side tells the peer's loop to look; null without. */
    private final PeerDoorbell peerDoorbell;
    /**
     * Direct peer access: the peer's lines, mapped here, into which credit is written straight (the same words an
     * RDMA WRITE would write, without a work request or a completion); null without.
     */
    private final AtomicBuffer peerLines;
    /** Credit written straight into the peer's lines this cycle: the peer is told to look at the end of it. */
    private boolean creditWritten;
    /**
     * This cycle's batch holds a write into the peer's rings or lines: with direct peer access, the peer is told to
     * look. A batch of one-sided operations alone is nothing the peer's loop must see: it is not woken for it.
     */
    private boolean peerMustLook;

    private long receivesPosted;
    int receivesToRepost;
    boolean grantPending;
    private long grantFromPeer;
    private long immediatesPosted;
    int outstandingSends;
    /**
     * The work request ids of the sends posted and not yet completed, in post order: a reliable connection completes
     * the sends of one queue pair in that order, so a completion that is not the one due was reordered, or one before
     * it was lost. The receives are checked the same way ({@link CompletionOrder}).
     */
    final long[] sendIdsDue;
    long sendsAdded;

    /** @param streams the connection's streams, filled in before the first duty cycle */
    Posting(final ProtocolConnection connection, final QueuePair queuePair, final MemoryRegion local,
            final HandshakeFlyweight peer, final AtomicBuffer lines, final AtomicBuffer staging,
            final ProtocolStream[] streams, final long[] active, final Liveness liveness,
            final PeerDoorbell peerDoorbell, final AtomicBuffer peerLines, final int ringCapacity) {
        this.connection = connection;
        this.queuePair = queuePair;
        this.local = local;
        this.peerAddress = peer.receiveRegionAddress();
        this.peerRkey = peer.receiveRegionRkey();
        this.maxStreams = streams.length;
        this.ringCapacity = ringCapacity;
        this.streams = streams;
        this.active = active;
        this.lines = lines;
        this.staging = staging;
        this.liveness = liveness;
        this.peerDoorbell = peerDoorbell;
        this.peerLines = peerLines;
        this.maxOutstandingSends = ProtocolConnection.sendDepth(maxStreams) - 4;
        this.sendIdsDue = new long[Integer.highestOneBit(maxOutstandingSends) << 1];
        this.sends = queuePair.newSendRequest(3 * maxStreams + 2);
        this.receives = queuePair.newReceiveRequest(ProtocolConnection.RECEIVE_DEPTH);
    }

    /** The connection starts: every receive is posted. */
    void start() {
        receivesToRepost = ProtocolConnection.RECEIVE_DEPTH;
        repostReceives();
    }

    /** Reposts the receives the peer's writes took, once a quarter of them are taken. @return work done */
    int repostReceivesIfDue() {
        if (receivesToRepost >= ProtocolConnection.RECEIVE_DEPTH / 4) {
            repostReceives();
            return 1;
        }
        return 0;
    }

    /** Begins this cycle's batch of sends. */
    void clear() {
        sends.clear();
    }

    int sendData() {
        int work = 0;
        for (int w = 0; w < active.length; w++) {
            long bits = active[w];
            while (bits != 0) {
                final int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                final int sent = sendData(s);
                if (sent < 0) {
                    return work;
                }
                work += sent;
            }
        }
        return work;
    }

    /** Reads the peer's receive grant for this side's writes with an immediate. @return false if it failed */
    private boolean refreshGrant() {
        final long grant = CheckedWord.read(lines, ConnectionLayout.GRANT_OFFSET);
        if (grant != CheckedWord.TORN) { // torn: caught mid-write, the grant stays as it was until the next cycle
            if (grant < grantFromPeer) {
                connection.fail(ProtocolError.describe(ProtocolError.CREDIT_BACKWARDS) + " (its receive grant)");
                return false;
            }
            grantFromPeer = grant;
        }
        return true;
    }

    /**
     * Stream {@code s}'s credit, and its committed bytes posted (or, direct, recorded as sent).
     *
     * @return work done, or -1 if the connection failed
     */
    private int sendData(final int s) {
        final StreamSendRing ring = streams[s].sendRing();
        final long creditBefore = ring.creditedPosition();
        final int credit = ring.refreshCredit();
        if (credit != ProtocolError.NONE) {
            connection.fail(ProtocolError.describe(credit) + " on stream " + s);
            return -1;
        }
        if (s > 0 && ring.creditedPosition() != creditBefore) {
            connection.activity.onProducerReady(s);
        }
        final long producer = ring.producerPosition();
        final long sent = ring.sentPosition();
        if (ring.isDirect()) {
            if (producer != sent) { // already in the peer's ring: nothing to post, the peer saw it published
                ring.sentTo(producer);
                liveness.onSent(connection.nowNanos);
                return 1;
            }
            return 0;
        }
        if (producer == sent || !room(2)) {
            return 0;
        }
        if (immediatesPosted >= grantFromPeer && (!refreshGrant() || immediatesPosted >= grantFromPeer)) {
            return connection.isTerminated() ? -1 : 0;
        }
        final long ringBase = ConnectionLayout.ringOffset(s, ringCapacity);
        final int index = (int) (sent & (ringCapacity - 1));
        final int pending = (int) (producer - sent);
        final int first = Math.min(pending, ringCapacity - index);
        if (first < pending) {
            addWrite(KIND_DATA | ((long) s << 48) | ((sent + first) & POSITION_MASK),
                local.address() + ringBase + index, first, ringBase + index);
            addWriteWithImmediate(s, producer, local.address() + ringBase, pending - first, ringBase, pending);
        } else {
            addWriteWithImmediate(s, producer, local.address() + ringBase + index, first, ringBase + index,
                pending);
        }
        ring.sentTo(producer);
        immediatesPosted++;
        liveness.onSent(connection.nowNanos); // only writes with an immediate tell the peer this side is alive
        return 1;
    }

    int returnCredit() {
        int work = 0;
        for (int w = 0; w < active.length; w++) {
            long bits = active[w];
            while (bits != 0 && room(1)) {
                final int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                work += returnCredit(s);
            }
        }
        return work;
    }

    int returnCredit(final int s) {
        final long consumed = streams[s].receiveRing().creditToReturn();
        if (consumed < 0) {
            return 0;
        }
        final int line = s * ConnectionLayout.LINE;
        if (peerLines != null) {
            // direct: the words go straight into the peer's line (the value, then its complement: a reader that
            // catches them half-written sees a torn word and reads again in its next cycle)
            CheckedWord.write(peerLines, line + ConnectionLayout.CONSUMED_OFFSET, consumed);
            creditWritten = true;
            return 1;
        }
        CheckedWord.write(staging, line + ConnectionLayout.CONSUMED_OFFSET, consumed);
        addWrite(KIND_CREDIT | ((long) s << 48) | (sendsAdded & POSITION_MASK),
            staging.addressOffset() + line, CheckedWord.LENGTH,
            ConnectionLayout.lineOffset(s, maxStreams, ringCapacity) + ConnectionLayout.CONSUMED_OFFSET);
        return 1;
    }

    /** Tells the peer how many receives this side posted, when that changed. @return work done */
    int grant() {
        if (grantPending && room(1)) {
            CheckedWord.write(staging, ConnectionLayout.GRANT_OFFSET, receivesPosted);
            addWrite(KIND_GRANT | (sendsAdded & POSITION_MASK),
                staging.addressOffset() + ConnectionLayout.GRANT_OFFSET, CheckedWord.LENGTH,
                ConnectionLayout.lineOffset(0, maxStreams, ringCapacity) + ConnectionLayout.GRANT_OFFSET);
            grantPending = false;
            return 1;
        }
        return 0;
    }

    /** Posts this cycle's batch of sends, if it has any. @return false if the connection failed */
    boolean post() {
        if (sends.count() > 0) {
            final int status = queuePair.postSend(sends);
            if (status != PostStatus.OK) {
                connection.fail("posting to the queue pair failed: " + PostStatus.name(status));
                return false;
            }
            if (peerDoorbell != null && (peerMustLook || creditWritten)) {
                peerDoorbell.ring(PeerDoorbell.POSTED); // what was posted lands in the peer's memory and completion queue: it looks
            }
            creditWritten = false;
            peerMustLook = false;
        } else if (creditWritten) {
            creditWritten = false;
            peerDoorbell.ring(PeerDoorbell.POSTED); // the credit written straight into its lines: it looks
        }
        return true;
    }

    boolean room(final int requests) {
        return outstandingSends + requests <= maxOutstandingSends && sends.count() + requests <= sends.capacity();
    }

    void addWrite(final long wrId, final long localAddress, final int length, final long remoteOffset) {
        peerMustLook = true;
        sends.add(wrId, WorkRequestOpcode.RDMA_WRITE, length <= CheckedWord.LENGTH ? SendFlags.INLINE : 0)
            .sge(localAddress, length, local.lkey())
            .remote(peerAddress + remoteOffset, peerRkey);
        sendIdsDue[(int) (sendsAdded++ & (sendIdsDue.length - 1))] = wrId;
        outstandingSends++;
    }

    /** Adds an application's RDMA READ or WRITE ({@link OneSidedQueue}); the caller checked the room. */
    void addOneSided(final long wrId, final OneSidedOperation operation) {
        sends.add(wrId, operation.opcode(), 0)
            .sge(operation.localAddress(), operation.length(), operation.lkey())
            .remote(operation.remoteAddress(), operation.rkey());
        sendIdsDue[(int) (sendsAdded++ & (sendIdsDue.length - 1))] = wrId;
        outstandingSends++;
    }

    /** Adds an application's atomic, its original value returned into {@code word} ({@link OneSidedQueue}). */
    void addAtomic(final long wrId, final OneSidedOperation operation, final long word, final int wordKey) {
        sends.add(wrId, operation.opcode(), 0)
            .sge(word, Long.BYTES, wordKey)
            .remote(operation.remoteAddress(), operation.rkey())
            .atomic(operation.compareAdd(), operation.swap());
        sendIdsDue[(int) (sendsAdded++ & (sendIdsDue.length - 1))] = wrId;
        outstandingSends++;
    }

    private void addWriteWithImmediate(final int stream, final long endPosition, final long localAddress,
                                       final int length, final long remoteOffset, final int advance) {
        peerMustLook = true;
        sends.add(KIND_DATA | ((long) stream << 48) | (endPosition & POSITION_MASK),
                WorkRequestOpcode.RDMA_WRITE_WITH_IMM, 0)
            .sge(localAddress, length, local.lkey())
            .remote(peerAddress + remoteOffset, peerRkey)
            .immediate(ImmediateCodec.encode(stream, advance));
        sendIdsDue[(int) (sendsAdded++ & (sendIdsDue.length - 1))] = KIND_DATA | ((long) stream << 48)
            | (endPosition & POSITION_MASK);
        outstandingSends++;
    }

    private void repostReceives() {
        receives.clear();
        for (int i = 0; i < receivesToRepost; i++) {
            receives.add(receivesPosted + i); // zero-length: a receive only absorbs an immediate
        }
        final int status = queuePair.postReceive(receives);
        if (status != PostStatus.OK) {
            connection.fail("posting receives failed: " + PostStatus.name(status));
            return;
        }
        receivesPosted += receivesToRepost;
        receivesToRepost = 0;
        grantPending = true;
    }
}
