package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionOpcode;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A reliable connected queue pair of the shared-memory device: its connection to the peer, its send queue, and the
 * SPI face of its parts. The posting thread plays the adapter: it checks the keys and bounds of every request against
 * the region tables, has the {@link ShmCopyEngine} copy the bytes between the two processes' mappings, takes the
 * peer's posted receive, and writes both completions, all before the post returns. Nothing on that path allocates,
 * locks or throws. Its receives are the {@link ShmReceiveQueue}'s; its error state the {@link ShmErrorState}'s.
 *
 * <p>Errors behave as on hardware: the request completes with an error status (signalled or not), the queue pair
 * enters the error state and flushes its receive queue, and where the peer's side is at fault too (a remote access
 * violation, a message too long for its receive) the peer's queue pair enters the error state as well and its
 * device reports it.
 */
final class ShmQueuePair implements QueuePair {

    private static final long RNR_TIMER_NANOS = 100_000;

    private final ShmDevice device;
    private final int number;
    private final OffHeapMemory fileMemory;
    private final QueuePairFile file;
    private final ShmCompletionQueue sendQueue;
    private final QueuePairOptions options;
    private final ShmReceiveQueue receives;
    private final ShmErrorState error;
    /** Only the posting thread uses it. */
    private final ShmCopyEngine copier;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Send requests posted, and retired (their completion or a later one polled), as on verbs. */
    private long sendPosted;
    private volatile long sendRetired;
    /** The sequence of the request being executed, carried in its completion. */
    private int sendSequence;

    /** The protection domain it was created in (0: the device's own). */
    private final int domain;
    private volatile PeerView peer;
    private volatile CmChannel channel;
    private volatile String peerDescription = "not connected";
    private volatile byte[] peerEndpoint;
    private volatile byte[] peerPrivateData = new byte[0];

    ShmQueuePair(final ShmDevice device, final int number, final OffHeapMemory fileMemory,
                 final QueuePairOptions options, final ShmCompletionQueue sendQueue,
                 final ShmCompletionQueue receiveQueue) {
        this.device = device;
        this.number = number;
        this.fileMemory = fileMemory;
        this.options = options;
        this.sendQueue = sendQueue;
        this.domain = device.domainOf(options);
        this.file = QueuePairFile.create(fileMemory.buffer(), number, receiveQueue.id(), options.receiveDepth(),
            options.maxReceiveSge(), domain);
        this.receives = new ShmReceiveQueue(device, file, receiveQueue, number, options.maxReceiveSge());
        this.error = new ShmErrorState(this, device, file, receives);
        this.copier = new ShmCopyEngine(device, domain, options.maxSendSge());
    }

    /** Ready to receive from the peer that is about to connect (its posts check this state). */
    void makeReady() {
        file.state(QueuePairFile.STATE_READY);
    }

    /** Attaches the connected peer; the queue pair is ready to send once this returns. */
    void connected(final PeerView view, final CmChannel cm, final String description, final byte[] privateData) {
        this.peerEndpoint = endpoint(view.deviceId(), view.queuePair.qpNumber());
        copier.peerConnected(view.queuePair.maxSge());
        this.peerPrivateData = privateData.clone();
        this.peerDescription = description;
        this.channel = cm;
        this.peer = view;
        file.state(QueuePairFile.STATE_READY);
    }

    /** The peer accepted and closed its queue pair before this side could map it: report the disconnect. */
    void acceptedThenClosed(final CmChannel cm, final String description, final byte[] privateData,
                            final String peerDeviceId, final int peerNumber) {
        this.peerEndpoint = endpoint(peerDeviceId, peerNumber);
        this.peerPrivateData = privateData.clone();
        this.peerDescription = description;
        this.channel = cm;
        error.enter("the peer (" + description + ") disconnected: it closed its queue pair right after accepting",
            ConnectionEvent.Type.DISCONNECTED);
    }

    CmChannel channel() {
        return channel;
    }

    /** @return an endpoint's bytes: the device id (UTF-8), a 0, the queue-pair number (4 bytes, big-endian) */
    static byte[] endpoint(final String deviceId, final int number) {
        final byte[] id = deviceId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return java.nio.ByteBuffer.allocate(id.length + 5).put(id).put((byte) 0).putInt(number).array();
    }

    @Override
    public byte[] localEndpoint() {
        return endpoint(device.id(), number);
    }

    @Override
    public byte[] peerEndpoint() {
        final byte[] peer = peerEndpoint;
        if (peer == null) {
            throw new IllegalStateException("queue pair " + number + " is not connected: it has no peer endpoint");
        }
        return peer.clone();
    }

    @Override
    public int number() {
        return number;
    }

    @Override
    public QueuePairState state() {
        if (closed.get()) {
            return QueuePairState.CLOSED;
        }
        return switch (file.state()) {
            case QueuePairFile.STATE_READY -> QueuePairState.READY_TO_SEND;
            case QueuePairFile.STATE_ERROR -> QueuePairState.ERROR;
            case QueuePairFile.STATE_CLOSED -> QueuePairState.CLOSED;
            default -> QueuePairState.RESET;
        };
    }

    @Override
    public String errorReason() {
        return error.reason();
    }

    @Override
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    @Override
    public String peerDescription() {
        return peerDescription;
    }

    @Override
    public SendWorkRequest newSendRequest(final int capacity) {
        return new ShmSendRequest(capacity, options.maxSendSge());
    }

    @Override
    public ReceiveWorkRequest newReceiveRequest(final int capacity) {
        return new ShmReceiveRequest(capacity, options.maxReceiveSge());
    }

    // ------------------------------------------------------------------------------------------------ receives

    @Override
    public int postReceive(final ReceiveWorkRequest request) {
        return request instanceof ShmReceiveRequest batch ? receives.post(batch) : PostStatus.INVALID;
    }

    /** Called when a receive completion of this queue pair is polled: the work on its regions is done. */
    void receiveCompleted(final int slot) {
        receives.completed(slot);
    }

    /**
     * Called when a send completion of this queue pair is polled: it and every request posted before it (the
     * unsignalled ones) leave the send queue.
     */
    void sendCompleted(final int sequence) {
        sendRetired = retiredAfter(sendRetired, sequence);
    }

    /**
     * @param retired  how many send requests have retired so far
     * @param sequence the low 32 bits of the sequence of a polled completion (1 for the first request)
     * @return the new count: the request and all before it have retired; a completion older than the count (a
     * reordered flush) changes nothing. Fewer than 2^31 requests are ever outstanding, so the 32 bits suffice.
     */
    static long retiredAfter(final long retired, final int sequence) {
        final int ahead = sequence - (int) retired;
        return ahead > 0 ? retired + ahead : retired;
    }

    // ------------------------------------------------------------------------------------------------ sends

    @Override
    public long peerMemoryAddress(final long remoteAddress, final long length, final int rkey) {
        final PeerView remote = peer;
        if (remote == null || length <= 0 || file.state() != QueuePairFile.STATE_READY
            || !RegionTable.isRemoteKey(rkey)) {
            return 0;
        }
        final long offset = remote.regions.offset(rkey, remoteAddress, length, Access.REMOTE_WRITE,
            remote.queuePair.domain());
        final MemorySegment segment = offset < 0 ? null : remote.segment(rkey);
        if (segment == null) {
            return 0;
        }
        return offset > segment.byteSize() - length ? 0 : segment.address() + offset;
    }

    @Override
    public int postSend(final SendWorkRequest request) {
        if (!(request instanceof ShmSendRequest batch) || batch.maxSge != options.maxSendSge()) {
            return PostStatus.INVALID;
        }
        batch.failedIndex = -1;
        for (int i = 0; i < batch.count; i++) {
            final int opcode = batch.opcode[i];
            final boolean inline = (batch.flags[i] & SendFlags.INLINE) != 0;
            if (!WorkRequestOpcode.isValid(opcode) || batch.overflowed(i)
                || (inline && (opcode == WorkRequestOpcode.RDMA_READ || batch.totalLength(i) > options.maxInlineData()))
                || (WorkRequestOpcode.isAtomic(opcode) && (inline || batch.totalLength(i) != Long.BYTES
                    || (batch.remoteAddress[i] & (Long.BYTES - 1)) != 0))) {
                // an atomic takes one 8-byte local buffer and an 8-byte aligned remote word: refused before anything
                batch.failedIndex = i;
                return PostStatus.INVALID;
            }
            if (sendPosted - sendRetired >= options.sendDepth()) {
                batch.failedIndex = i;
                return PostStatus.QUEUE_FULL;
            }
            sendSequence = (int) ++sendPosted;
            execute(batch, i);
        }
        return PostStatus.OK;
    }

    private void execute(final ShmSendRequest batch, final int i) {
        final long wrId = batch.wrId[i];
        final int opcode = batch.opcode[i];
        final int completionOpcode = CompletionOpcode.ofWorkRequest(opcode);
        final boolean signaled = options.signalAll() || (batch.flags[i] & SendFlags.SIGNALED) != 0;
        if (file.state() != QueuePairFile.STATE_READY || peer == null) {
            complete(wrId, CompletionStatus.WR_FLUSH_ERR, completionOpcode, 0);
            return;
        }
        final PeerView remote = peer;
        final int gatherAccess = opcode == WorkRequestOpcode.RDMA_READ || WorkRequestOpcode.isAtomic(opcode)
            ? Access.LOCAL_WRITE : 0;
        final long length = (batch.flags[i] & SendFlags.INLINE) != 0
            ? copier.resolveInline(batch, i) : copier.resolveGather(batch, i, gatherAccess);
        if (length < 0) {
            fail(wrId, completionOpcode, CompletionStatus.LOC_PROT_ERR, "a local buffer of " + WorkRequestOpcode.name(opcode)
                + " work request " + wrId + " is outside its region, its lkey is wrong or of another protection domain than "
                + "the queue pair's, or the region lacks LOCAL_WRITE",
                false);
            return;
        }
        final int remoteState = remote.queuePair.state();
        if (remoteState == QueuePairFile.STATE_CLOSED) {
            // the peer closed its queue pair on purpose, and its disconnect notice may still be on its way: behave as
            // the connection manager's disconnect does on verbs
            complete(wrId, CompletionStatus.WR_FLUSH_ERR, completionOpcode, 0);
            error.enter("the peer (" + peerDescription + ") disconnected: it closed its queue pair",
                ConnectionEvent.Type.DISCONNECTED);
            return;
        }
        if (remoteState != QueuePairFile.STATE_READY) {
            fail(wrId, completionOpcode, CompletionStatus.RETRY_EXC_ERR, "the peer's queue pair is not ready "
                + "(it is in the error state or gone)", false);
            return;
        }
        int remoteSegmentIndex = -1;
        MemorySegment remoteSegment = null;
        long remoteOffset = 0;
        if (WorkRequestOpcode.isOneSided(opcode)) {
            final int rkey = batch.rkey[i];
            final long address = batch.remoteAddress[i];
            final int required = opcode == WorkRequestOpcode.RDMA_READ ? Access.REMOTE_READ
                : WorkRequestOpcode.isAtomic(opcode) ? Access.REMOTE_ATOMIC : Access.REMOTE_WRITE;
            if (!RegionTable.isRemoteKey(rkey)
                || (remoteOffset = remote.regions.offset(rkey, address, length, required,
                    remote.queuePair.domain())) < 0
                || (remoteSegment = remote.segment(rkey)) == null || remoteOffset > remoteSegment.byteSize() - length) {
                fail(wrId, completionOpcode, CompletionStatus.REM_ACCESS_ERR, "the peer refused "
                    + WorkRequestOpcode.name(opcode) + " of " + length + " bytes at 0x" + Long.toHexString(address)
                    + " with rkey 0x" + Integer.toHexString(rkey) + ": the key is wrong or deregistered, belongs to "
                    + "another protection domain than the peer's queue pair, the range is outside the region, or the "
                    + "region lacks " + Access.toString(required), true);
                return;
            }
            remoteSegmentIndex = RegionTable.indexOf(rkey);
        }
        if (opcode == WorkRequestOpcode.RDMA_WRITE) {
            copier.scatterTo(remoteSegment, remoteOffset);
            complete(signaled, wrId, completionOpcode);
            return;
        }
        if (opcode == WorkRequestOpcode.RDMA_READ) {
            copier.gatherFrom(remoteSegment, remoteOffset);
            complete(signaled, wrId, completionOpcode);
            return;
        }
        if (WorkRequestOpcode.isAtomic(opcode)) {
            if (((remoteSegment.address() + remoteOffset) & (Long.BYTES - 1)) != 0) {
                fail(wrId, completionOpcode, CompletionStatus.REM_INV_REQ_ERR, "the peer refused "
                    + WorkRequestOpcode.name(opcode) + " at 0x" + Long.toHexString(batch.remoteAddress[i])
                    + ": the word is not 8-byte aligned in its memory", true);
                return;
            }
            copier.atomic(opcode, remoteSegment, remoteOffset, batch.compareAdd[i], batch.swap[i]);
            complete(signaled, wrId, completionOpcode);
            return;
        }
        // the opcodes that take a posted receive on the peer
        final long receive = takeReceive(remote);
        if (receive < 0) {
            fail(wrId, completionOpcode, CompletionStatus.RNR_RETRY_EXC_ERR, "the peer had no receive posted for "
                + WorkRequestOpcode.name(opcode) + " work request " + wrId + " (receiver not ready)", false);
            return;
        }
        final QueuePairFile remoteQp = remote.queuePair;
        final long receiveWrId = remoteQp.slotWrId(receive);
        final int receiveSlot = remoteQp.slotOf(receive);
        final boolean immediate = WorkRequestOpcode.hasImmediate(opcode);
        final int flags = immediate ? CompletionRing.FLAG_IMMEDIATE : 0;
        final int imm = immediate ? batch.immediate[i] : 0;
        if (opcode == WorkRequestOpcode.RDMA_WRITE_WITH_IMM) {
            copier.scatterTo(remoteSegment, remoteOffset);
            if (!remote.receiveQueue.offer(receiveWrId, CompletionStatus.SUCCESS, CompletionOpcode.RECV_RDMA_WITH_IMM,
                (int) length, imm, remoteQp.qpNumber(), flags, receiveSlot)) {
                fail(wrId, completionOpcode, CompletionStatus.REM_OP_ERR, "the peer's completion queue overflowed",
                    true);
                return;
            }
            complete(signaled, wrId, completionOpcode);
            return;
        }
        // SEND and SEND_WITH_IMM: scatter into the receive's buffers, which the peer's table must vouch for
        final int scatter = copier.resolveScatter(remote, receive);
        if (scatter == -2 || scatter >= 0 && length > copier.scatterTotal(scatter)) {
            final int receiveStatus = scatter == -2 ? CompletionStatus.LOC_PROT_ERR : CompletionStatus.LOC_LEN_ERR;
            remote.receiveQueue.offer(receiveWrId, receiveStatus, CompletionOpcode.RECV, 0, 0, remoteQp.qpNumber(), 0,
                receiveSlot);
            fail(wrId, completionOpcode, scatter == -2 ? CompletionStatus.REM_OP_ERR : CompletionStatus.REM_INV_REQ_ERR,
                WorkRequestOpcode.name(opcode) + " work request " + wrId + " of " + length + " bytes did not fit the "
                    + "peer's receive " + receiveWrId + (scatter == -2 ? " (its buffers fail their lkey check)"
                    : " of " + (scatter >= 0 ? copier.scatterTotal(scatter) : 0) + " bytes"), true);
            return;
        }
        copier.copyGatherToScatter(scatter);
        if (!remote.receiveQueue.offer(receiveWrId, CompletionStatus.SUCCESS, CompletionOpcode.RECV, (int) length, imm,
            remoteQp.qpNumber(), flags, receiveSlot)) {
            fail(wrId, completionOpcode, CompletionStatus.REM_OP_ERR, "the peer's completion queue overflowed", true);
            return;
        }
        complete(signaled, wrId, completionOpcode);
    }

    /** @return the index of the receive taken, or -1 if none was posted within the RNR retries */
    private long takeReceive(final PeerView remote) {
        final QueuePairFile remoteQp = remote.queuePair;
        int retries = options.rnrRetries();
        while (true) {
            final long consumer = remoteQp.consumer();
            if (consumer < remoteQp.producer()) {
                if (remoteQp.take(consumer)) {
                    return consumer;
                }
                continue; // the peer flushed it meanwhile: look again
            }
            if (retries == 0 || remoteQp.state() != QueuePairFile.STATE_READY) {
                return -1;
            }
            if (retries < 7) {
                retries--;
            }
            LockSupport.parkNanos(RNR_TIMER_NANOS);
        }
    }

    private void complete(final boolean signaled, final long wrId, final int completionOpcode) {
        if (signaled) {
            complete(wrId, CompletionStatus.SUCCESS, completionOpcode, 0);
        }
    }

    private void complete(final long wrId, final int status, final int completionOpcode, final int byteLength) {
        if (!sendQueue.ring().offer(wrId, status, completionOpcode, byteLength, 0, number, 0, sendSequence)) {
            error.enter("the send completion queue overflowed: poll it more often or make it larger", null);
        }
    }

    /** Completes a request with an error, moves this queue pair (and the peer's, if it is at fault too) to ERROR. */
    private void fail(final long wrId, final int completionOpcode, final int status, final String why,
                      final boolean peerToo) {
        sendQueue.ring().offer(wrId, status, completionOpcode, 0, 0, number, 0, sendSequence);
        final String reason = CompletionStatus.name(status) + ": " + why;
        if (peerToo) {
            final PeerView remote = peer;
            if (remote != null) {
                remote.queuePair.compareAndSetState(QueuePairFile.STATE_READY, QueuePairFile.STATE_ERROR);
            }
            notifyPeer(CmChannel.QP_ERROR, "the peer's " + reason);
        }
        error.enter(reason, ConnectionEvent.Type.QUEUE_PAIR_ERROR);
    }

    // ------------------------------------------------------------------------------------------------ state

    /*
     * The connection-manager socket reached end-of-file, or a frame arrived from the peer. The connection-manager
     * thread calls onPeerLost and onPeerFrame; close() unmaps this queue pair's file. Both hold
     * this object's monitor (cold paths only), so the connection manager never touches the file after it is unmapped.
     */
    synchronized void onPeerLost() {
        if (closed.get()) {
            return;
        }
        {
            error.enter("the peer (" + peerDescription + ") went away without disconnecting: its process exited or "
                + "was killed", ConnectionEvent.Type.PEER_LOST);
        }
    }

    synchronized void onPeerFrame(final int type, final ByteBuffer payload) {
        if (closed.get()) {
            return;
        }
        String reason;
        try {
            reason = CmChannel.getString(payload);
        } catch (final IOException ex) {
            reason = "(no reason given)";
        }
        if (type == CmChannel.DISCONNECT) {
            error.enter("the peer (" + peerDescription + ") disconnected: " + reason, ConnectionEvent.Type.DISCONNECTED);
        } else if (type == CmChannel.QP_ERROR) {
            error.enter(reason, ConnectionEvent.Type.QUEUE_PAIR_ERROR);
        }
    }

    private void notifyPeer(final int type, final String reason) {
        final CmChannel cm = channel;
        if (cm != null) {
            final ByteBuffer payload = ByteBuffer.allocate(2 + reason.length() * 3);
            CmChannel.putString(payload, reason.length() > 1000 ? reason.substring(0, 1000) : reason);
            try {
                cm.send(type, payload.flip());
            } catch (final IOException ignored) {
                // the peer is gone already: its side learns nothing more, ours goes on to the error state
            }
        }
    }

    @Override
    public void disconnect() {
        if (file.state() == QueuePairFile.STATE_READY) {
            notifyPeer(CmChannel.DISCONNECT, "disconnect() was called");
            error.enter("disconnected locally", ConnectionEvent.Type.DISCONNECTED);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (file.state() == QueuePairFile.STATE_READY && peer != null) {
            file.compareAndSetState(QueuePairFile.STATE_READY, QueuePairFile.STATE_CLOSED); // the peer sees it at once
            notifyPeer(CmChannel.DISCONNECT, "the queue pair was closed");
        }
        file.compareAndSetState(QueuePairFile.STATE_READY, QueuePairFile.STATE_ERROR);
        error.silence();
        final CmChannel cm = channel;
        if (cm != null) {
            device.monitor().unwatch(this);
            cm.close();
        }
        receives.reclaim();
        file.state(QueuePairFile.STATE_CLOSED);
        final PeerView view = peer;
        if (view != null) {
            view.close();
        }
        device.forget(this);
        fileMemory.close();
    }

    @Override
    public String toString() {
        return "ShmQueuePair{number=" + number + ", state=" + state() + ", peer=" + peerDescription + '}';
    }
}
