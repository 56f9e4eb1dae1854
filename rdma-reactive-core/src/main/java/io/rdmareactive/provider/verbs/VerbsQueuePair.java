package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendWorkRequest;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A reliable connected queue pair created by {@code rdma_create_qp} on a connection-manager identifier, which moves it
 * through INIT, RTR and RTS as the connection is set up.
 *
 * <p>Posting gives every work request the provider's own {@code wr_id} ({@link WorkRequestIds}) and keeps the
 * caller's in an array indexed by sequence; a completion finds both again with no lookup and counts the queue's
 * completed work, which is what deferred deregistration waits for. Posting and polling allocate nothing, take no lock
 * and make no system call of their own ({@code rxe}'s {@code post_send} makes one to ring its doorbell).
 *
 * <p>Errors: a failed completion (any status but success and flush) puts the queue pair in the error state and
 * reports {@link ConnectionEvent.Type#QUEUE_PAIR_ERROR} naming the status; so does an asynchronous event from the
 * adapter. A flushed completion while the queue pair was ready means it entered the error state without telling us
 * why yet (a peer's disconnect whose connection-manager event has not been read, or the responder side of a remote
 * access error on adapters that raise no event for it): the queue pair enters the error state at once, and the event
 * follows from the connection manager or, if none comes within {@link #UNEXPLAINED_FLUSH_GRACE_NANOS}, as a
 * {@code QUEUE_PAIR_ERROR}.
 */
final class VerbsQueuePair implements QueuePair {

    static final long UNEXPLAINED_FLUSH_GRACE_NANOS = 300_000_000L;

    private static final VarHandle LONG_ARRAY = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle SEND_COMPLETED;
    private static final VarHandle RECEIVE_COMPLETED;
    private static final Map<Long, VerbsQueuePair> BY_NATIVE_ADDRESS = new ConcurrentHashMap<>();

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            SEND_COMPLETED = lookup.findVarHandle(VerbsQueuePair.class, "sendCompleted", long.class);
            RECEIVE_COMPLETED = lookup.findVarHandle(VerbsQueuePair.class, "receiveCompleted", long.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final VerbsDevice device;
    private final MemorySegment cmId;
    private final MemorySegment qp;
    private final int number;
    private final int slot;
    private final MemorySegment postSendFunction;
    private final MemorySegment postReceiveFunction;
    private final MemorySegment sendBad;
    private final MemorySegment receiveBad;
    private final long[] sendWrIds;
    private final int sendMask;
    private final long[] receiveWrIds;
    private final int receiveMask;
    private final int maxSendSge;
    private final int maxReceiveSge;
    private final int maxInlineData;
    private final String peerDescription;
    private final int sendCapacity;
    private final int receiveCapacity;
    private final VerbsCompletionQueue receiveQueue;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean disconnectWanted;
    private final AtomicBoolean errorReported = new AtomicBoolean();

    private long sendPosted;
    private long receivePosted;
    @SuppressWarnings("unused") // through SEND_COMPLETED
    private volatile long sendCompleted;
    @SuppressWarnings("unused") // through RECEIVE_COMPLETED
    private volatile long receiveCompleted;

    private volatile QueuePairState state = QueuePairState.RESET;
    private volatile String errorReason;
    private volatile long unexplainedFlushAt;
    private volatile byte[] peerPrivateData = new byte[0];

    VerbsQueuePair(final VerbsDevice device, final MemorySegment cmId, final MemorySegment qp, final int slot,
                   final int sendDepth, final int receiveDepth, final int maxSendSge, final int maxReceiveSge,
                   final int maxInlineData, final String peerDescription, final VerbsCompletionQueue receiveQueue) {
        this.device = device;
        this.cmId = cmId;
        this.qp = qp;
        this.number = qp.get(JAVA_INT, VerbsLayouts.QP_NUM);
        this.slot = slot;
        final MemorySegment context = qp.get(ADDRESS, VerbsLayouts.QP_CONTEXT)
            .reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
        this.postSendFunction = context.get(ADDRESS, VerbsLayouts.CONTEXT_POST_SEND);
        this.postReceiveFunction = context.get(ADDRESS, VerbsLayouts.CONTEXT_POST_RECV);
        this.sendBad = device.allocate(ADDRESS.byteSize(), 64);
        this.receiveBad = device.allocate(ADDRESS.byteSize(), 64);
        this.sendWrIds = new long[powerOfTwo(sendDepth)];
        this.sendMask = sendWrIds.length - 1;
        this.receiveWrIds = new long[powerOfTwo(receiveDepth)];
        this.receiveMask = receiveWrIds.length - 1;
        this.maxSendSge = maxSendSge;
        this.maxReceiveSge = maxReceiveSge;
        this.maxInlineData = maxInlineData;
        this.peerDescription = peerDescription;
        this.sendCapacity = sendDepth;
        this.receiveCapacity = receiveDepth;
        this.receiveQueue = receiveQueue;
        BY_NATIVE_ADDRESS.put(qp.address(), this);
    }

    private static int powerOfTwo(final int value) {
        return Integer.highestOneBit(Math.max(1, value) * 2 - 1);
    }

    MemorySegment cmId() {
        return cmId;
    }

    int slot() {
        return slot;
    }

    int maxInlineData() {
        return maxInlineData;
    }

    /** This end's GID, once the connecting side's route is resolved: its local endpoint is known from then on. */
    void localGid(final byte[] gid) {
        this.localEndpoint = endpoint(gid, number);
    }

    /**
     * The connection's endpoints, from its identifier's route and the peer's queue-pair number the connection manager
     * reported (before the accept's answer is made, or once the connect is established).
     */
    void endpoints(final byte[] localGid, final byte[] peerGid, final int peerNumber) {
        this.localEndpoint = endpoint(localGid, number);
        this.peerEndpoint = endpoint(peerGid, peerNumber);
    }

    /** @return an endpoint's bytes ({@link VerbsLayouts#ENDPOINT}): the GID, then the queue-pair number, big-endian */
    static byte[] endpoint(final byte[] gid, final int number) {
        return java.nio.ByteBuffer.allocate((int) VerbsLayouts.ENDPOINT.byteSize())
            .put((int) VerbsLayouts.ENDPOINT_GID, gid, 0, (int) VerbsLayouts.GID_LENGTH)
            .putInt((int) VerbsLayouts.ENDPOINT_QP_NUM, number).array();
    }

    @Override
    public byte[] localEndpoint() {
        return connectedEndpoint(localEndpoint, "its route is not resolved yet");
    }

    @Override
    public byte[] peerEndpoint() {
        return connectedEndpoint(peerEndpoint, "it is not connected yet");
    }

    private byte[] connectedEndpoint(final byte[] endpoint, final String why) {
        if (endpoint == null) {
            throw new IllegalStateException("queue pair " + number + " has no endpoint: " + why);
        }
        return endpoint.clone();
    }

    private volatile byte[] localEndpoint;
    private volatile byte[] peerEndpoint;

    /** The connection is established: data may flow. */
    void established(final byte[] peerData) {
        peerPrivateData = peerData.clone();
        state = QueuePairState.READY_TO_SEND;
    }

    // ------------------------------------------------------------------------------------------------- accessors

    @Override
    public int number() {
        return number;
    }

    @Override
    public QueuePairState state() {
        return state;
    }

    @Override
    public String errorReason() {
        return errorReason;
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
        if (capacity <= 0) {
            throw new IllegalArgumentException("a send batch holds at least one request: " + capacity);
        }
        return new VerbsSendRequest(this, device.allocate(capacity * VerbsLayouts.IBV_SEND_WR.byteSize(), 64),
            device.allocate(capacity * (long) maxSendSge * VerbsLayouts.IBV_SGE.byteSize(), 64), capacity, maxSendSge);
    }

    @Override
    public ReceiveWorkRequest newReceiveRequest(final int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a receive batch holds at least one receive: " + capacity);
        }
        return new VerbsReceiveRequest(this, device.allocate(capacity * VerbsLayouts.IBV_RECV_WR.byteSize(), 64),
            device.allocate(capacity * (long) Math.max(1, maxReceiveSge) * VerbsLayouts.IBV_SGE.byteSize(), 64),
            capacity, Math.max(1, maxReceiveSge));
    }

    // ------------------------------------------------------------------------------------------------- data path

    @Override
    public int postSend(final SendWorkRequest request) {
        if (!(request instanceof VerbsSendRequest batch) || batch.owner() != this) {
            throw new IllegalArgumentException("post a send request made by this queue pair's newSendRequest");
        }
        if (closed.get()) {
            batch.failedIndex = 0;
            return PostStatus.INVALID;
        }
        final long first = sendPosted;
        final int count = batch.postable(sendCapacity - (first - (long) SEND_COMPLETED.getAcquire(this)));
        if (count == 0) {
            return batch.posted(0);
        }
        for (int i = 0; i < count; i++) {
            final long sequence = first + i;
            LONG_ARRAY.setRelease(sendWrIds, (int) sequence & sendMask, batch.userWrId(i));
            batch.link(i, WorkRequestIds.send(slot, sequence), i == count - 1);
            if (!batch.isInline(i)) {
                for (int s = 0, n = batch.sgeCount(i); s < n; s++) {
                    device.registrations().noteUse(batch.sgeLkey(i, s), this);
                }
            }
        }
        final int status = VerbsDataPath.postSend(postSendFunction, qp, batch.first(), sendBad);
        if (status == 0) {
            sendPosted = first + count;
            return batch.posted(count);
        }
        final int failed = clamp(batch.indexOf(sendBad.get(ADDRESS, 0).address()), count);
        sendPosted = first + failed;
        batch.failedIndex = failed;
        return status;
    }

    @Override
    public int postReceive(final ReceiveWorkRequest request) {
        if (!(request instanceof VerbsReceiveRequest batch) || batch.owner() != this) {
            throw new IllegalArgumentException("post a receive request made by this queue pair's newReceiveRequest");
        }
        if (closed.get()) {
            batch.failedIndex = 0;
            return PostStatus.INVALID;
        }
        final long first = receivePosted;
        final long completed = (long) RECEIVE_COMPLETED.getAcquire(this);
        final int count = batch.postable(receiveCapacity - (first - completed));
        if (count == 0) {
            return batch.posted(0);
        }
        final boolean flushHere = state != QueuePairState.READY_TO_SEND && state != QueuePairState.RESET
            && first == completed;
        for (int i = 0; i < count; i++) {
            final long sequence = first + i;
            LONG_ARRAY.setRelease(receiveWrIds, (int) sequence & receiveMask, batch.userWrId(i));
            final long providerWrId = WorkRequestIds.receive(slot, sequence);
            batch.link(i, providerWrId, i == count - 1);
            if (flushHere) {
                receiveQueue.addFlushed(providerWrId, number);
            } else {
                for (int s = 0, n = batch.sgeCount(i); s < n; s++) {
                    device.registrations().noteUse(batch.sgeLkey(i, s), this);
                }
            }
        }
        if (flushHere) {
            // a receive posted to a queue pair in the error state completes flushed; Soft-RoCE before Linux 6.x
            // would keep it forever, so the provider flushes it itself when nothing posted earlier is outstanding
            receivePosted = first + count;
            return batch.posted(count);
        }
        final int status = VerbsDataPath.postRecv(postReceiveFunction, qp, batch.first(), receiveBad);
        if (status == 0) {
            receivePosted = first + count;
            return batch.posted(count);
        }
        final int failed = clamp(batch.indexOf(receiveBad.get(ADDRESS, 0).address()), count);
        receivePosted = first + failed;
        batch.failedIndex = failed;
        return status;
    }

    private static int clamp(final int index, final int count) {
        return index < 0 || index > count ? 0 : index;
    }

    /**
     * A completion of this queue pair was polled (on the polling thread).
     *
     * @return the caller's work request id
     */
    long complete(final long providerWrId, final int status, final int vendorError) {
        final long wrId;
        if (WorkRequestIds.isReceive(providerWrId)) {
            final long sequence = WorkRequestIds.sequence(providerWrId, (long) RECEIVE_COMPLETED.getOpaque(this));
            wrId = (long) LONG_ARRAY.getAcquire(receiveWrIds, (int) sequence & receiveMask);
            RECEIVE_COMPLETED.setRelease(this, sequence + 1);
        } else {
            final long sequence = WorkRequestIds.sequence(providerWrId, (long) SEND_COMPLETED.getOpaque(this));
            wrId = (long) LONG_ARRAY.getAcquire(sendWrIds, (int) sequence & sendMask);
            SEND_COMPLETED.setRelease(this, sequence + 1);
        }
        if (status != CompletionStatus.SUCCESS) {
            onFailedCompletion(status, vendorError);
        }
        return wrId;
    }

    private void onFailedCompletion(final int status, final int vendorError) {
        if (status == CompletionStatus.WR_FLUSH_ERR) {
            if (state == QueuePairState.READY_TO_SEND) {
                if (errorReason == null) {
                    errorReason = "the queue pair entered the error state: its outstanding work was flushed";
                }
                state = QueuePairState.ERROR;
                unexplainedFlushAt = System.nanoTime();
            }
            return;
        }
        enterError(CompletionStatus.name(status) + " (vendor error 0x" + Integer.toHexString(vendorError) + "): "
            + CompletionStatus.explain(status), ConnectionEvent.Type.QUEUE_PAIR_ERROR);
        disconnectWanted = true; // the event thread disconnects, so that the peer learns it at once
    }

    /** @return true if all work posted up to the given counts has completed, or the queue pair is gone */
    boolean hasCompleted(final long sends, final long receives) {
        return closed.get() || ((long) SEND_COMPLETED.getAcquire(this) >= sends
            && (long) RECEIVE_COMPLETED.getAcquire(this) >= receives);
    }

    long sendsPosted() {
        return sendPosted;
    }

    long receivesPosted() {
        return receivePosted;
    }

    // ------------------------------------------------------------------------------------------------- events

    /**
     * Moves to the error state and reports the event, once.
     *
     * @param reason    why
     * @param eventType the event to report
     */
    void enterError(final String reason, final ConnectionEvent.Type eventType) {
        if (state != QueuePairState.CLOSED) {
            state = QueuePairState.ERROR;
        }
        if (errorReported.compareAndSet(false, true)) {
            errorReason = reason;
            if (!closed.get()) {
                device.connections().report(new ConnectionEvent(eventType, this, reason));
            }
        }
    }

    /** Called by the event thread after each wake-up. */
    void onTick(final long now) {
        if (disconnectWanted) {
            disconnectWanted = false;
            disconnectQuietly();
        }
        checkUnexplainedFlush(now);
    }

    /** Disconnects (moving the queue pair to the error state, answering a peer's disconnect) unless closed. */
    synchronized void disconnectQuietly() {
        if (!closed.get()) {
            device.connections().disconnect(this);
        }
    }

    /** Called by the event thread: an unexplained flush that no event has explained in time is reported. */
    void checkUnexplainedFlush(final long now) {
        final long at = unexplainedFlushAt;
        if (at != 0 && !errorReported.get() && now - at > UNEXPLAINED_FLUSH_GRACE_NANOS) {
            enterError("the queue pair entered the error state without a completion error of its own: the peer found "
                + "an error in this side's requests (for example a remote access violation) or the adapter failed",
                ConnectionEvent.Type.QUEUE_PAIR_ERROR);
        }
    }

    /** An asynchronous event of the adapter (from any device's event thread). */
    static void onAsyncEvent(final int type, final long element) {
        final String name = switch (type) {
            case 1 -> "IBV_EVENT_QP_FATAL";
            case 2 -> "IBV_EVENT_QP_REQ_ERR";
            case 3 -> "IBV_EVENT_QP_ACCESS_ERR";
            default -> null;
        };
        if (name == null) {
            return;
        }
        final VerbsQueuePair queuePair = BY_NATIVE_ADDRESS.get(element);
        if (queuePair != null) {
            queuePair.enterError(name + ": " + switch (type) {
                case 3 -> "the peer's request broke this side's access rules (a bad rkey, an address outside a "
                    + "region, or a region without remote access)";
                case 2 -> "the peer sent a request this queue pair cannot execute";
                default -> "the queue pair failed";
            }, ConnectionEvent.Type.QUEUE_PAIR_ERROR);
        }
    }

    /**
     * The connection manager reported a disconnect (on the event thread). librdmacm leaves the queue pair as it was,
     * so the provider disconnects too: that moves it to the error state, which flushes its work, and answers the
     * peer's request.
     */
    void onDisconnected() {
        enterError("the peer (" + peerDescription + ") disconnected: it closed the connection, or its process "
            + "exited or was killed (the kernel disconnects a dying process's connections, so verbs cannot tell which)",
            ConnectionEvent.Type.DISCONNECTED);
        disconnectQuietly();
    }

    @Override
    public void disconnect() {
        if (state == QueuePairState.READY_TO_SEND || (state == QueuePairState.ERROR && !errorReported.get())) {
            disconnectQuietly();
            enterError("disconnected locally", ConnectionEvent.Type.DISCONNECTED);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (state == QueuePairState.READY_TO_SEND) {
            device.connections().disconnect(this);
        }
        state = QueuePairState.CLOSED;
        BY_NATIVE_ADDRESS.remove(qp.address());
        device.destroyQueuePair(this);
    }

    /** The domain it was created in, or null for the device's own. */
    private volatile VerbsProtectionDomain domain;

    void domain(final VerbsProtectionDomain value) {
        this.domain = value;
    }

    VerbsProtectionDomain domain() {
        return domain;
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "VerbsQueuePair{number=" + number + ", state=" + state + ", peer=" + peerDescription + '}';
    }
}
