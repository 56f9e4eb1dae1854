package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.lang.foreign.MemorySegment;

/**
 * A batch of {@code struct ibv_send_wr}, each with room for the queue pair's gather entries, in native memory
 * allocated once with the queue pair's device. Filling it writes the structures in place; posting links them and
 * posts them with one {@code post_send}. The caller's work request ids stay here until the queue pair assigns the
 * provider's own at post time.
 */
final class VerbsSendRequest implements SendWorkRequest {

    private static final long WR_SIZE = VerbsLayouts.IBV_SEND_WR.byteSize();

    private final VerbsQueuePair owner;
    private final MemorySegment wrs;
    private final ScatterGatherTable entries;
    private final int capacity;
    private final long[] userWrIds;
    private final boolean[] inline;
    private int count;
    private int overflowIndex = -1;
    int failedIndex = -1;

    VerbsSendRequest(final VerbsQueuePair owner, final MemorySegment wrs, final MemorySegment sges,
                     final int capacity, final int maxSge) {
        this.owner = owner;
        this.wrs = wrs;
        this.entries = new ScatterGatherTable(sges, capacity, maxSge);
        this.capacity = capacity;
        this.userWrIds = new long[capacity];
        this.inline = new boolean[capacity];
    }

    VerbsQueuePair owner() {
        return owner;
    }

    @Override
    public SendWorkRequest clear() {
        count = 0;
        overflowIndex = -1;
        return this;
    }

    @Override
    public SendWorkRequest add(final long wrId, final int opcode, final int flags) {
        if (count == capacity) {
            throw new IllegalStateException("the send batch is full: it holds " + capacity + " requests");
        }
        final int index = count++;
        final long wr = index * WR_SIZE;
        userWrIds[index] = wrId;
        entries.reset(index);
        inline[index] = (flags & SendFlags.INLINE) != 0;
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ID, 0L);
        wrs.set(ADDRESS, wr + VerbsLayouts.SEND_WR_NEXT, MemorySegment.NULL);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_SG_LIST, entries.listAddress(index));
        wrs.set(JAVA_INT, wr + VerbsLayouts.SEND_WR_NUM_SGE, 0);
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
        final int index = current();
        final int n = entries.add(index, address, length, lkey);
        if (n < 0) {
            if (overflowIndex < 0) {
                overflowIndex = index;
            }
        } else {
            wrs.set(JAVA_INT, index * WR_SIZE + VerbsLayouts.SEND_WR_NUM_SGE, n);
        }
        return this;
    }

    @Override
    public SendWorkRequest remote(final long address, final int rkey) {
        final long wr = current() * WR_SIZE;
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_REMOTE_ADDR, address);
        // the union's two members keep the rkey in different places
        final boolean atomic = WorkRequestOpcode.isAtomic(wrs.get(JAVA_INT, wr + VerbsLayouts.SEND_WR_OPCODE));
        wrs.set(JAVA_INT, wr + (atomic ? VerbsLayouts.SEND_WR_ATOMIC_RKEY : VerbsLayouts.SEND_WR_RKEY), rkey);
        return this;
    }

    @Override
    public SendWorkRequest atomic(final long compareAdd, final long swap) {
        final long wr = current() * WR_SIZE;
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ATOMIC_COMPARE_ADD, compareAdd);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ATOMIC_SWAP, swap);
        return this;
    }

    @Override
    public SendWorkRequest immediate(final int immediate) {
        wrs.set(VerbsLayouts.BE_INT, current() * WR_SIZE + VerbsLayouts.SEND_WR_IMM, immediate);
        return this;
    }

    private int current() {
        if (count == 0) {
            throw new IllegalStateException("add a request to the batch first");
        }
        return count - 1;
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

    // ------------------------------------------------------------------------------------------ for the queue pair

    /** @return the first request with more gather entries than the queue pair allows, or -1 */
    int overflowIndex() {
        return overflowIndex;
    }

    long userWrId(final int index) {
        return userWrIds[index];
    }

    boolean isInline(final int index) {
        return inline[index];
    }

    int sgeCount(final int index) {
        return entries.count(index);
    }

    int sgeLkey(final int index, final int sge) {
        return entries.lkey(index, sge);
    }

    /** Gives request {@code index} the provider's id and links it to the next, or ends the list after {@code last}. */
    void link(final int index, final long providerWrId, final boolean last) {
        final long wr = index * WR_SIZE;
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_ID, providerWrId);
        wrs.set(JAVA_LONG, wr + VerbsLayouts.SEND_WR_NEXT, last ? 0L : wrs.address() + (index + 1) * WR_SIZE);
    }

    MemorySegment first() {
        return wrs;
    }

    /** @return the index of the request at native address {@code address} */
    int indexOf(final long address) {
        return (int) ((address - wrs.address()) / WR_SIZE);
    }
}
