package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionOpcode;
import io.rdmareactive.spi.CompletionQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.MessageHandler;

/**
 * A completion queue of the shared-memory device: a {@link CompletionRing} in a file of its own, so that peers can
 * complete this process's receives. Polling reads records in place through one reused {@link Completion} flyweight.
 */
final class ShmCompletionQueue implements CompletionQueue, MessageHandler, Completion {

    private final ShmDevice device;
    private final int id;
    private final int capacity;
    private final OffHeapMemory memory;
    private final CompletionRing ring;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CompletionHandler handler;
    private DirectBuffer record;
    private int offset;

    ShmCompletionQueue(final ShmDevice device, final int id, final int capacity, final OffHeapMemory memory) {
        this.device = device;
        this.id = id;
        this.capacity = capacity;
        this.memory = memory;
        this.ring = CompletionRing.create(memory.buffer(), capacity);
    }

    int id() {
        return id;
    }

    CompletionRing ring() {
        return ring;
    }

    @Override
    public int poll(final CompletionHandler handler, final int limit) {
        if (ring.isOverrun()) {
            return OVERRUN;
        }
        this.handler = handler;
        try {
            return ring.read(this, limit);
        } finally {
            this.handler = null;
            this.record = null;
        }
    }

    @Override
    public void onMessage(final int msgTypeId, final org.agrona.MutableDirectBuffer buffer, final int index,
                          final int length) {
        if (msgTypeId != CompletionRing.RECORD_TYPE || length != CompletionRing.RECORD_LENGTH) {
            return;
        }
        record = buffer;
        offset = index;
        try {
            handler.onCompletion(this);
        } finally {
            device.onCompleted(queuePairNumber(), CompletionOpcode.isReceive(opcode()),
                buffer.getInt(index + CompletionRing.SLOT));
        }
    }

    @Override
    public long wrId() {
        return record.getLong(offset + CompletionRing.WR_ID);
    }

    @Override
    public int status() {
        return record.getInt(offset + CompletionRing.STATUS);
    }

    @Override
    public int opcode() {
        return record.getInt(offset + CompletionRing.OPCODE);
    }

    @Override
    public int byteLength() {
        return record.getInt(offset + CompletionRing.BYTE_LENGTH);
    }

    @Override
    public int immediate() {
        return record.getInt(offset + CompletionRing.IMMEDIATE);
    }

    @Override
    public boolean hasImmediate() {
        return (record.getInt(offset + CompletionRing.FLAGS) & CompletionRing.FLAG_IMMEDIATE) != 0;
    }

    @Override
    public int queuePairNumber() {
        return record.getInt(offset + CompletionRing.QP_NUMBER);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            device.forget(this);
            memory.close();
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "ShmCompletionQueue{id=" + id + ", capacity=" + capacity + '}';
    }
}
