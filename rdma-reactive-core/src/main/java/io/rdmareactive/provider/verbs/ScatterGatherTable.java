package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;

/**
 * The {@code struct ibv_sge} entries of a batch of work requests, in native memory allocated once: room for
 * {@code maxSge} entries per request, written in place as the batch is filled. Shared by the send and receive
 * batches; not thread safe (one per batch).
 */
final class ScatterGatherTable {

    private static final long SGE_SIZE = VerbsLayouts.IBV_SGE.byteSize();

    private final MemorySegment sges;
    private final int maxSge;
    private final int[] counts;

    ScatterGatherTable(final MemorySegment sges, final int capacity, final int maxSge) {
        this.sges = sges;
        this.maxSge = maxSge;
        this.counts = new int[capacity];
    }

    /** Empties request {@code index}'s entries. */
    void reset(final int index) {
        counts[index] = 0;
    }

    /** @return the native address of request {@code index}'s first entry, for its {@code sg_list} */
    long listAddress(final int index) {
        return sges.address() + index * (long) maxSge * SGE_SIZE;
    }

    /**
     * Appends an entry to request {@code index}.
     *
     * @return the request's entry count now, or -1 if it already had {@code maxSge} (nothing written)
     */
    int add(final int index, final long address, final int length, final int lkey) {
        final int n = counts[index];
        if (n == maxSge) {
            return -1;
        }
        final long sge = (index * (long) maxSge + n) * SGE_SIZE;
        sges.set(JAVA_LONG, sge + VerbsLayouts.SGE_ADDR, address);
        sges.set(JAVA_INT, sge + VerbsLayouts.SGE_LENGTH, length);
        sges.set(JAVA_INT, sge + VerbsLayouts.SGE_LKEY, lkey);
        counts[index] = n + 1;
        return n + 1;
    }

    int count(final int index) {
        return counts[index];
    }

    int lkey(final int index, final int sge) {
        return sges.get(JAVA_INT, (index * (long) maxSge + sge) * SGE_SIZE + VerbsLayouts.SGE_LKEY);
    }
}
