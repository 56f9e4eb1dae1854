package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A completion queue ({@code ibv_create_cq}), polled through the {@code poll_cq} pointer of its context's ops into a
 * work-completion array allocated once. Each completion's {@code wr_id} is the provider's own (queue pair slot,
 * direction and sequence); the queue pair turns it back into the caller's work request id and counts the work done,
 * so the completion handed on is a reused flyweight over the array entry: nothing is allocated per completion.
 *
 * <p>Created on the device's completion channel (where it has one), it can tell a sleeping poller of its next
 * completion: {@link #armWakeup} asks for one event ({@code ibv_req_notify_cq}), and the device's event thread, which
 * reads the channel, runs the poller's wake-up when it comes.
 */
final class VerbsCompletionQueue implements CompletionQueue {

    static final int POLL_BATCH = 32;
    private static final long WC_SIZE = VerbsLayouts.IBV_WC.byteSize();
    private static final int IBV_WC_WITH_IMM = 1 << 1;

    private final VerbsDevice device;
    private final MemorySegment cq;
    private final MemorySegment pollFunction;
    private final MemorySegment notifyFunction;
    /** Created on the device's completion channel: {@link #armWakeup} can tell of completions. */
    private volatile boolean wakeable;
    /** An event was asked for and has not come yet. */
    private volatile boolean armed;
    /** What the event runs (the poller's wake-up). */
    private volatile Runnable wakeup;
    private final MemorySegment completions;
    private final int capacity;
    private final Flyweight flyweight = new Flyweight();
    private final Flushed flushed = new Flushed();
    private final java.util.concurrent.ConcurrentLinkedQueue<long[]> providerFlushes =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    VerbsCompletionQueue(final VerbsDevice device, final MemorySegment cq, final MemorySegment completions,
                         final boolean wakeable) {
        this.wakeable = wakeable;
        this.device = device;
        this.cq = cq;
        this.completions = completions;
        final MemorySegment context = cq.get(ADDRESS, VerbsLayouts.CQ_CONTEXT)
            .reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
        this.pollFunction = context.get(ADDRESS, VerbsLayouts.CONTEXT_POLL_CQ);
        this.notifyFunction = context.get(ADDRESS, VerbsLayouts.CONTEXT_REQ_NOTIFY_CQ);
        this.capacity = cq.get(JAVA_INT, VerbsLayouts.CQ_CQE);
    }

    MemorySegment cq() {
        return cq;
    }

    @Override
    public int poll(final CompletionHandler handler, final int limit) {
        if (closed.get()) {
            return 0;
        }
        int handled = 0;
        long[] flush;
        while (handled < limit && (flush = providerFlushes.poll()) != null) {
            if (flushed.wrap(flush)) {
                handler.onCompletion(flushed);
                handled++;
            }
        }
        while (handled < limit) {
            final int wanted = Math.min(POLL_BATCH, limit - handled);
            final int n = VerbsDataPath.pollCq(pollFunction, cq, wanted, completions);
            if (n < 0) {
                return OVERRUN;
            }
            for (int i = 0; i < n; i++) {
                if (flyweight.wrap(i * WC_SIZE)) {
                    handler.onCompletion(flyweight);
                    handled++;
                }
            }
            if (n < wanted) {
                break;
            }
        }
        if (device.registrations().hasPendingDeregistrations()) {
            device.registrations().retryDeregistrations();
        }
        return handled;
    }

    @Override
    public boolean armWakeup(final Runnable wakeup) {
        if (!wakeable || closed.get()) {
            return false;
        }
        this.wakeup = wakeup;
        if (armed) {
            return false; // asked already; the event has not come
        }
        armed = true;
        final int rc = VerbsDataPath.reqNotifyCq(notifyFunction, cq);
        if (rc != 0) {
            armed = false;
            wakeable = false; // its poller finds completions by polling from now on
            device.onWakeupUnavailable("ibv_req_notify_cq failed with " + Errno.name(rc));
            return false;
        }
        return true;
    }

    @Override
    public boolean canWake() {
        return wakeable && !closed.get();
    }

    /** The event asked for came (the device's event thread, which acknowledged it): wakes the poller. */
    void onCompletionEvent() {
        armed = false;
        final Runnable target = wakeup;
        if (target != null) {
            target.run();
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            device.destroyCompletionQueue(this);
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    /**
     * Queues a flushed receive completion that the provider makes itself, for a receive posted to a queue pair in
     * the error state with nothing posted before it outstanding (the error path only: it allocates).
     */
    void addFlushed(final long providerWrId, final int queuePairNumber) {
        providerFlushes.add(new long[] {providerWrId, queuePairNumber});
    }

    /** A flushed receive the provider completed itself. */
    private final class Flushed implements Completion {

        private long wrId;
        private int queuePairNumber;

        boolean wrap(final long[] flush) {
            final VerbsQueuePair queuePair = device.queuePairs().inSlot(WorkRequestIds.slot(flush[0]));
            if (queuePair == null || queuePair.number() != (int) flush[1]) {
                return false;
            }
            queuePairNumber = (int) flush[1];
            wrId = queuePair.complete(flush[0], CompletionStatus.WR_FLUSH_ERR, 0);
            return true;
        }

        @Override
        public long wrId() {
            return wrId;
        }

        @Override
        public int status() {
            return CompletionStatus.WR_FLUSH_ERR;
        }

        @Override
        public int opcode() {
            return io.rdmareactive.spi.CompletionOpcode.RECV;
        }

        @Override
        public int byteLength() {
            return 0;
        }

        @Override
        public int immediate() {
            return 0;
        }

        @Override
        public boolean hasImmediate() {
            return false;
        }

        @Override
        public int queuePairNumber() {
            return queuePairNumber;
        }
    }

    /** The completion handed to handlers: reads the current array entry in place. */
    private final class Flyweight implements Completion {

        private long offset;
        private long wrId;
        private int status;

        /** @return false if the completion belongs to no live queue pair (a queue pair destroyed meanwhile) */
        boolean wrap(final long entryOffset) {
            offset = entryOffset;
            status = completions.get(JAVA_INT, offset + VerbsLayouts.WC_STATUS);
            final long raw = completions.get(JAVA_LONG, offset + VerbsLayouts.WC_WR_ID);
            final int qpNumber = completions.get(JAVA_INT, offset + VerbsLayouts.WC_QP_NUM);
            final VerbsQueuePair queuePair = device.queuePairs().inSlot(WorkRequestIds.slot(raw));
            if (queuePair == null || queuePair.number() != qpNumber) {
                return false;
            }
            wrId = queuePair.complete(raw, status, completions.get(JAVA_INT, offset + VerbsLayouts.WC_VENDOR_ERR));
            return true;
        }

        @Override
        public long wrId() {
            return wrId;
        }

        @Override
        public int status() {
            return status;
        }

        @Override
        public int opcode() {
            return completions.get(JAVA_INT, offset + VerbsLayouts.WC_OPCODE);
        }

        @Override
        public int byteLength() {
            return completions.get(JAVA_INT, offset + VerbsLayouts.WC_BYTE_LEN);
        }

        @Override
        public int immediate() {
            return hasImmediate() ? completions.get(VerbsLayouts.BE_INT, offset + VerbsLayouts.WC_IMM) : 0;
        }

        @Override
        public boolean hasImmediate() {
            return status == CompletionStatus.SUCCESS
                && (completions.get(JAVA_INT, offset + VerbsLayouts.WC_FLAGS) & IBV_WC_WITH_IMM) != 0;
        }

        @Override
        public int queuePairNumber() {
            return completions.get(JAVA_INT, offset + VerbsLayouts.WC_QP_NUM);
        }

        @Override
        public String toString() {
            return "Completion{wrId=" + wrId + ", status=" + CompletionStatus.name(status) + ", opcode=" + opcode()
                + ", byteLength=" + byteLength() + ", immediate=" + immediate() + '}';
        }
    }
}
