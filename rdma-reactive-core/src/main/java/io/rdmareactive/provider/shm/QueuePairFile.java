package io.rdmareactive.provider.shm;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A queue pair's shared state: its state word and its receive queue, in a file that the connected peer maps so
 * that the peer's sends can take the next posted receive and complete it, as an adapter would.
 *
 * <pre>
 *  0 magic 'RRQP' | 4 qp number | 8 state | 12 receive CQ id | 16 receive depth (power of two) | 20 max scatter
 *  24 protection domain (0: the device's own; work requests through this queue pair reach only its regions)
 *  128  producer index (long, written by the owner only)        | padded to its own cache lines
 *  256  consumer index (long, advanced by compare-and-set)      | padded
 *  384  slots: slot i at 384 + i * slotLength
 *        0 wr id (long) | 8 scatter count (int) | 12 pad | 16 + 16 * k: address (long), length (int), lkey (int)
 * </pre>
 *
 * <p>The owner posts: it writes a slot, then publishes it with an ordered store of the producer index. A receive is
 * taken by compare-and-set of the consumer index, either by the peer's posting thread (a SEND or WRITE_WITH_IMM
 * arriving) or by the owner flushing the queue after an error, so each receive completes exactly once.
 */
final class QueuePairFile {

    static final int MAGIC = 0x50515252; // "RRQP"
    static final int STATE_RESET = 0;
    static final int STATE_READY = 1;
    static final int STATE_ERROR = 2;
    static final int STATE_CLOSED = 3;

    private static final int QP_NUMBER = 4;
    private static final int STATE = 8;
    private static final int RECEIVE_CQ = 12;
    private static final int DEPTH = 16;
    private static final int MAX_SGE = 20;
    private static final int DOMAIN = 24;
    private static final int PRODUCER = 128;
    static final int CONSUMER = 256;
    private static final int SLOTS = 384;
    private static final int SLOT_HEADER = 16;
    private static final int SGE_LENGTH = 16;

    private final AtomicBuffer buffer;
    private final int depth;
    private final int mask;
    private final int maxSge;
    private final int slotLength;

    private QueuePairFile(final AtomicBuffer buffer) {
        this.buffer = buffer;
        this.depth = buffer.getInt(DEPTH);
        this.mask = depth - 1;
        this.maxSge = buffer.getInt(MAX_SGE);
        this.slotLength = SLOT_HEADER + SGE_LENGTH * maxSge;
    }

    static long fileLength(final int depth, final int maxSge) {
        return SLOTS + (long) roundDepth(depth) * (SLOT_HEADER + SGE_LENGTH * maxSge);
    }

    static int roundDepth(final int depth) {
        return depth <= 1 ? 1 : Integer.highestOneBit(depth - 1) << 1;
    }

    static QueuePairFile create(final AtomicBuffer buffer, final int qpNumber, final int receiveCq, final int depth,
                                final int maxSge, final int domain) {
        buffer.putInt(QP_NUMBER, qpNumber);
        buffer.putInt(DOMAIN, domain);
        buffer.putInt(RECEIVE_CQ, receiveCq);
        buffer.putInt(DEPTH, roundDepth(depth));
        buffer.putInt(MAX_SGE, maxSge);
        buffer.putIntVolatile(STATE, STATE_RESET);
        buffer.putIntVolatile(0, MAGIC);
        return new QueuePairFile(buffer);
    }

    /** @return the peer's queue pair in its file, or null if the file does not hold a consistent one */
    static QueuePairFile attach(final AtomicBuffer buffer) {
        if (buffer.capacity() < SLOTS || buffer.getIntVolatile(0) != MAGIC) {
            return null;
        }
        final int depth = buffer.getInt(DEPTH);
        final int maxSge = buffer.getInt(MAX_SGE);
        if (depth <= 0 || Integer.bitCount(depth) != 1 || maxSge <= 0 || maxSge > 1024
            || fileLength(depth, maxSge) > buffer.capacity()) {
            return null;
        }
        return new QueuePairFile(buffer);
    }

    int qpNumber() {
        return buffer.getInt(QP_NUMBER);
    }

    /** @return the queue pair's protection domain (its owner wrote it before publishing the file) */
    int domain() {
        return buffer.getInt(DOMAIN);
    }

    int receiveCompletionQueue() {
        return buffer.getInt(RECEIVE_CQ);
    }

    int depth() {
        return depth;
    }

    int maxSge() {
        return maxSge;
    }

    int state() {
        return buffer.getIntVolatile(STATE);
    }

    void state(final int state) {
        buffer.putIntVolatile(STATE, state);
    }

    /** @return true if this call moved the state from {@code expected} to {@code next} */
    boolean compareAndSetState(final int expected, final int next) {
        return buffer.compareAndSetInt(STATE, expected, next);
    }

    long producer() {
        return buffer.getLongVolatile(PRODUCER);
    }

    long consumer() {
        return buffer.getLongVolatile(CONSUMER);
    }

    /** @return receives posted and not yet taken */
    int outstanding() {
        return (int) (producer() - consumer());
    }

    /** @return the slot a producer index writes to */
    int slotOf(final long index) {
        return (int) (index & mask);
    }

    /** Owner: writes the receive at the producer index without publishing it. */
    void writeSlot(final long index, final long wrId, final int sgeCount) {
        final int slot = SLOTS + slotOf(index) * slotLength;
        buffer.putLong(slot, wrId);
        buffer.putInt(slot + 8, sgeCount);
    }

    void writeSge(final long index, final int k, final long address, final int length, final int lkey) {
        final int sge = SLOTS + slotOf(index) * slotLength + SLOT_HEADER + k * SGE_LENGTH;
        buffer.putLong(sge, address);
        buffer.putInt(sge + 8, length);
        buffer.putInt(sge + 12, lkey);
    }

    /** Owner: publishes every receive written up to (not including) {@code index}. */
    void publish(final long index) {
        buffer.putLongOrdered(PRODUCER, index);
    }

    long slotWrId(final long index) {
        return buffer.getLong(SLOTS + slotOf(index) * slotLength);
    }

    /** @return the scatter count of a slot, clamped to what the file allows (the slot is untrusted) */
    int slotSgeCount(final long index) {
        final int count = buffer.getInt(SLOTS + slotOf(index) * slotLength + 8);
        return count < 0 || count > maxSge ? -1 : count;
    }

    long sgeAddress(final long index, final int k) {
        return buffer.getLong(SLOTS + slotOf(index) * slotLength + SLOT_HEADER + k * SGE_LENGTH);
    }

    int sgeLength(final long index, final int k) {
        return buffer.getInt(SLOTS + slotOf(index) * slotLength + SLOT_HEADER + k * SGE_LENGTH + 8);
    }

    int sgeLkey(final long index, final int k) {
        return buffer.getInt(SLOTS + slotOf(index) * slotLength + SLOT_HEADER + k * SGE_LENGTH + 12);
    }

    /**
     * Takes the receive at {@code index} if nobody else has: the caller read the slot before calling.
     *
     * @return true if the caller now owns that receive
     */
    boolean take(final long index) {
        return buffer.compareAndSetLong(CONSUMER, index, index + 1);
    }
}
