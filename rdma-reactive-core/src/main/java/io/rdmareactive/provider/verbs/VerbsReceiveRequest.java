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
    private static final long SGE_SIZE = VerbsLayouts.IBV_SGE.byteSize();

    private final VerbsQueuePair owner;
    private final MemorySegment wrs;
    private final MemorySegment sges;
    private final int capacity;
    private final int maxSge;
    private final long[] userWrIds;
    private final int[] sgeCounts;
    private int count;
    private int overflowIndex = -1;
    int failedIndex = -1;

    VerbsReceiveRequest(final VerbsQueuePair owner, final MemorySegment wrs, final MemorySegment sges,
                        final int capacity, final int maxSge) {
        this.owner = owner;
        this.wrs = wrs;
        this.sges = sges;
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.userWrIds = new long[capacity];
        this.sgeCounts = new int[capacity];
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
        sgeCounts[index] = 0;
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_ID, 0L);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_NEXT, 0L);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.RECV_WR_SG_LIST, sges.address() + index * maxSge * SGE_SIZE);
        wrs.set(JAVA_INT, wr + VerbsLayouts.RECV_WR_NUM_SGE, 0);
        return this;
    }

    @Override
    public ReceiveWorkRequest sge(final long address, final int length, final int lkey) {
        if (count == 0) {
            throw new IllegalStateException("add a receive to the batch first");
        }
        final int index = count - 1;
        final int n = sgeCounts[index];
        if (n == maxSge) {
            if (overflowIndex < 0) {
                overflowIndex = index;
            }
            return this;
        }
        final long sge = (index * (long) maxSge + n) * SGE_SIZE;
        sges.set(JAVA_LONG, sge + VerbsLayouts.SGE_ADDR, address);
        sges.set(JAVA_INT, sge + VerbsLayouts.SGE_LENGTH, length);
        sges.set(JAVA_INT, sge + VerbsLayouts.SGE_LKEY, lkey);
        sgeCounts[index] = n + 1;
        wrs.set(JAVA_INT, index * WR_SIZE + VerbsLayouts.RECV_WR_NUM_SGE, n + 1);
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
        return sgeCounts[index];
    }

    int sgeLkey(final int index, final int sge) {
        return sges.get(JAVA_INT, (index * (long) maxSge + sge) * SGE_SIZE + VerbsLayouts.SGE_LKEY);
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
