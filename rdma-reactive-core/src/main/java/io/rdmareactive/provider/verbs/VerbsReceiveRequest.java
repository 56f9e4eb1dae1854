package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.ReceiveWorkRequest;
import java.lang.foreign.MemorySegment;

/**
 * A batch of {@code struct ibv_recv_wr}, each with room for the queue pair's scatter entries, in native memory
 * allocated once with the queue pair's device; posted with one {@code post_recv}. Ids and scatter entries only, all
 * in {@link VerbsWorkBatch}. A receive with no scatter entry is posted as such: it absorbs an RDMA WRITE WITH
 * IMMEDIATE.
 */
final class VerbsReceiveRequest extends VerbsWorkBatch implements ReceiveWorkRequest {

    VerbsReceiveRequest(final VerbsQueuePair owner, final MemorySegment wrs, final MemorySegment sges,
                        final int capacity, final int maxSge) {
        super("receive", "receive", VerbsLayouts.IBV_RECV_WR, owner, wrs, sges, capacity, maxSge);
    }

    @Override
    public ReceiveWorkRequest clear() {
        reset();
        return this;
    }

    @Override
    public ReceiveWorkRequest add(final long wrId) {
        append(wrId);
        return this;
    }

    @Override
    public ReceiveWorkRequest sge(final long address, final int length, final int lkey) {
        addSge(address, length, lkey);
        return this;
    }
}
