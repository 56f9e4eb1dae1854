package io.rdmareactive.provider.shm;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A completion queue in shared memory: a header page, then an Agrona {@link ManyToOneRingBuffer} of fixed-size
 * completion records. The owning device polls it; its own posting threads and the posting threads of peer
 * processes (which complete the owner's receives) offer into it.
 *
 * <pre>
 *  header page: 0 magic 'RRCQ' | 4 capacity (completions) | 8 overrun flag
 *  record (40 bytes):
 *   0                       8          12         16         20         24         28         32         36
 *  +-----------------------+----------+----------+----------+----------+----------+----------+----------+
 *  | wr id                 | status   | opcode   | bytes    | immediate| qp number| flags    | tag      | pad
 *  +-----------------------+----------+----------+----------+----------+----------+----------+----------+
 * </pre>
 *
 * <p>The tag is the receive-queue slot of a receive completion, or the sequence of a send request, so that polling
 * can release what the request held.
 *
 * <p>A full ring is an overrun, as on verbs: the flag is set and the queue is unusable from then on.
 */
final class CompletionRing {

    static final int MAGIC = 0x51434352; // "RCCQ"
    static final int HEADER_LENGTH = 4096;
    static final int RECORD_LENGTH = 40;
    static final int RECORD_TYPE = 1;
    /** Agrona's record header (8 bytes) plus the record, aligned to 8. */
    static final int SLOT_LENGTH = 48;

    static final int WR_ID = 0;
    static final int STATUS = 8;
    static final int OPCODE = 12;
    static final int BYTE_LENGTH = 16;
    static final int IMMEDIATE = 20;
    static final int QP_NUMBER = 24;
    static final int FLAGS = 28;
    static final int SLOT = 32;

    static final int FLAG_IMMEDIATE = 1;

    private static final int CAPACITY_OFFSET = 4;
    private static final int OVERRUN_OFFSET = 8;

    private final AtomicBuffer header;
    private final ManyToOneRingBuffer ring;
    private final AtomicBuffer records;

    private CompletionRing(final AtomicBuffer file) {
        this.header = new UnsafeBuffer(file, 0, HEADER_LENGTH);
        final int ringLength = ringCapacityOf(file.capacity()) + RingBufferDescriptor.TRAILER_LENGTH;
        this.ring = new ManyToOneRingBuffer(new UnsafeBuffer(file, HEADER_LENGTH, ringLength));
        this.records = ring.buffer();
    }

    /** @return the file length that holds {@code capacity} completions */
    static long fileLength(final int capacity) {
        return HEADER_LENGTH + ringCapacityFor(capacity) + RingBufferDescriptor.TRAILER_LENGTH;
    }

    private static int ringCapacityFor(final int capacity) {
        final long bytes = (long) (capacity + 1) * SLOT_LENGTH; // one slot of slack for padding at the wrap
        return Math.max(1024, Integer.highestOneBit((int) Math.min(1 << 30, bytes * 2 - 1)));
    }

    private static int ringCapacityOf(final int fileLength) {
        return Integer.highestOneBit(fileLength - HEADER_LENGTH - RingBufferDescriptor.TRAILER_LENGTH);
    }

    static CompletionRing create(final AtomicBuffer file, final int capacity) {
        final CompletionRing ring = new CompletionRing(file);
        ring.header.putInt(CAPACITY_OFFSET, capacity);
        ring.header.putIntVolatile(0, MAGIC);
        return ring;
    }

    /** @return the ring in a peer's file, or null if the file does not hold one */
    static CompletionRing attach(final AtomicBuffer file) {
        if (file.capacity() < HEADER_LENGTH + 1024 + RingBufferDescriptor.TRAILER_LENGTH
            || file.getIntVolatile(0) != MAGIC) {
            return null;
        }
        return new CompletionRing(file);
    }

    int capacity() {
        return header.getInt(CAPACITY_OFFSET);
    }

    boolean isOverrun() {
        return header.getIntVolatile(OVERRUN_OFFSET) != 0;
    }

    /**
     * Adds a completion; on a full ring, marks the queue overrun.
     *
     * @return false if the queue is or became overrun
     */
    boolean offer(final long wrId, final int status, final int opcode, final int byteLength, final int immediate,
                  final int qpNumber, final int flags, final int slot) {
        if (isOverrun()) {
            return false;
        }
        final int index = ring.tryClaim(RECORD_TYPE, RECORD_LENGTH);
        if (index <= 0) {
            header.putIntVolatile(OVERRUN_OFFSET, 1);
            return false;
        }
        records.putLong(index + WR_ID, wrId);
        records.putInt(index + STATUS, status);
        records.putInt(index + OPCODE, opcode);
        records.putInt(index + BYTE_LENGTH, byteLength);
        records.putInt(index + IMMEDIATE, immediate);
        records.putInt(index + QP_NUMBER, qpNumber);
        records.putInt(index + FLAGS, flags);
        records.putInt(index + SLOT, slot);
        ring.commit(index);
        return true;
    }

    int read(final MessageHandler handler, final int limit) {
        return ring.read(handler, limit);
    }

    /** After a producer died between claim and commit: lets the consumer move past its record. */
    boolean unblock() {
        return ring.unblock();
    }
}
