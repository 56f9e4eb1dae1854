package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.lang.foreign.MemorySegment;

/**
 * A batch of {@code struct ibv_send_wr}, each with room for the queue pair's gather entries, in native memory
 * allocated once with the queue pair's device: the ids and gather entries of {@link VerbsWorkBatch}, and the send
 * fields, written in place as the batch is filled; posting links the requests and posts them with one
 * {@code post_send}.
 */
final class VerbsSendRequest extends VerbsWorkBatch implements SendWorkRequest {

    private final boolean[] inline;

    VerbsSendRequest(final VerbsQueuePair owner, final MemorySegment wrs, final MemorySegment sges,
                     final int capacity, final int maxSge) {
        super("send", "request", VerbsLayouts.IBV_SEND_WR, owner, wrs, sges, capacity, maxSge);
        this.inline = new boolean[capacity];
    }

    @Override
    public SendWorkRequest clear() {
        reset();
        return this;
    }

    @Override
    public SendWorkRequest add(final long wrId, final int opcode, final int flags) {
        final int index = append(wrId);
        final long wr = wr(index);
        inline[index] = (flags & SendFlags.INLINE) != 0;
        wrs.set(JAVA_INT, wr + VerbsLayouts.SEND_WR_OPCODE, opcode);
        wrs.set(JAVA_INT, wr + VerbsLayouts.SEND_WR_FLAGS, flags);
        wrs.set(JAVA_INT, wr + VerbsLayouts.SEND_WR_IMM, 0);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_REMOTE_ADDR, 0L);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ATOMIC_COMPARE_ADD, 0L); // covers wr.rdma.rkey
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ATOMIC_SWAP, 0L);
        wrs.set(JAVA_INT, wr + VerbsLayouts.SEND_WR_ATOMIC_RKEY, 0);
        return this;
    }

    @Override
    public SendWorkRequest sge(final long address, final int length, final int lkey) {
        addSge(address, length, lkey);
        return this;
    }

    @Override
    public SendWorkRequest remote(final long address, final int rkey) {
        final long wr = wr(current());
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_REMOTE_ADDR, address);
        // the union's two members keep the rkey in different places
        final boolean atomic = WorkRequestOpcode.isAtomic(wrs.get(JAVA_INT, wr + VerbsLayouts.SEND_WR_OPCODE));
        wrs.set(JAVA_INT, wr + (atomic ? VerbsLayouts.SEND_WR_ATOMIC_RKEY : VerbsLayouts.SEND_WR_RKEY), rkey);
        return this;
    }

    @Override
    public SendWorkRequest atomic(final long compareAdd, final long swap) {
        final long wr = wr(current());
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ATOMIC_COMPARE_ADD, compareAdd);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ATOMIC_SWAP, swap);
        return this;
    }

    @Override
    public SendWorkRequest immediate(final int immediate) {
        wrs.set(VerbsLayouts.BE_INT, wr(current()) + VerbsLayouts.SEND_WR_IMM, immediate);
        return this;
    }

    // ------------------------------------------------------------------------------------------ for the queue pair

    boolean isInline(final int index) {
        return inline[index];
    }
}
