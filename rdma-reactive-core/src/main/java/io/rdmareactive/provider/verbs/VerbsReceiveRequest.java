package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.spi.ReceiveWorkRequest;
import java.lang.foreign.MemorySegment;

/**
 * A batch of {@code struct ibv_recv_wr}, each with room for the queue pair's scatter entries, in native memory
 * allocated once with the queue pair's device; posted with one {@code post_recv}. A receive with no scatter entry is
 * posted as such: it absorbs an RDMA WRITE WITH IMMEDIATE.
 */
final class VerbsReceiveRequest implements ReceiveWorkRequest {

    private static final long WR_SIZE = VerbsLayouts.IBV_RECV_WR.byteSize();

    private final VerbsQueuePair owner;
    private final MemorySegment wrs;
    private final ScatterGatherTable entries;
    private final int capacity;
    private final long[] userWrIds;
    private int count;
    private int overflowIndex = -1;
    int failedIndex = -1;

    VerbsReceiveRequest(final VerbsQueuePair owner, final MemorySegment wrs, final MemorySegment sges,
                        final int capacity, final int maxSge) {
        this.owner = owner;
        this.wrs = wrs;
        this.entries = new ScatterGatherTable(sges, capacity, maxSge);
        this.capacity = capacity;
        this.userWrIds = new long[capacity];
    }

    VerbsQueuePair owner() {
        return owner;
    }

    @Override
    public ReceiveWorkRequest clear() {
        count = 0;
        overflowIndex = -1;
        return this;
    }

    @Override
    public ReceiveWorkRequest add(final long wrId) {
        if (count == capacity) {
            throw new IllegalStateException("the receive batch is full: it holds " + capacity + " receives");
        }
        final int index = count++;
        final long wr = index * WR_SIZE;
        userWrIds[index] = wrId;
        entries.reset(index);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_ID, 0L);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_NEXT, 0L);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_SG_LIST, entries.listAddress(index));
        wrs.set(JAVA_INT, wr + VerbsLayouts.RECV_WR_NUM_SGE, 0);
        return this;
    }

    @Override
    public ReceiveWorkRequest sge(final long address, final int length, final int lkey) {
        if (count == 0) {
            throw new IllegalStateException("add a receive to the batch first");
        }
        final int index = count - 1;
        final int n = entries.add(index, address, length, lkey);
        if (n < 0) {
            if (overflowIndex < 0) {
                overflowIndex = index;
            }
        } else {
            wrs.set(JAVA_INT, index * WR_SIZE + VerbsLayouts.RECV_WR_NUM_SGE, n);
        }
        return this;
    }

    @Override
    public int count() {
        return count;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int failedIndex() {
        return failedIndex;
    }

    int overflowIndex() {
        return overflowIndex;
    }

    long userWrId(final int index) {
        return userWrIds[index];
    }

    int sgeCount(final int index) {
        return entries.count(index);
    }

    int sgeLkey(final int index, final int sge) {
        return entries.lkey(index, sge);
    }

    void link(final int index, final long providerWrId, final boolean last) {
        final long wr = index * WR_SIZE;
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_ID, providerWrId);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_NEXT, last ? 0L : wrs.address() + (index + 1) * WR_SIZE);
    }

    MemorySegment first() {
        return wrs;
    }

    int indexOf(final long address) {
        return (int) ((address - wrs.address()) / WR_SIZE);
    }
}
