package io.rdmareactive.fault;

import io.rdmareactive.spi.SendWorkRequest;
import java.util.ArrayList;
import java.util.List;

/** Send work requests written down as the protocol builds them, so that the wrapper can post, hold or refuse them. */
final class RecordedSendRequest implements SendWorkRequest {

    /** One work request with its gather entries. */
    static final class Entry {
        final long wrId;
        final int opcode;
        final int flags;
        final List<long[]> sges = new ArrayList<>();
        long remoteAddress;
        int rkey;
        boolean hasRemote;
        int immediate;
        boolean hasImmediate;
        long compareAdd;
        long swap;
        boolean hasAtomic;

        Entry(final long wrId, final int opcode, final int flags) {
            this.wrId = wrId;
            this.opcode = opcode;
            this.flags = flags;
        }

        int length() {
            int length = 0;
            for (final long[] sge : sges) {
                length += (int) sge[1];
            }
            return length;
        }
    }

    private final int capacity;
    private final List<Entry> entries = new ArrayList<>();
    int failedIndex = -1;

    RecordedSendRequest(final int capacity) {
        this.capacity = capacity;
    }

    List<Entry> entries() {
        return entries;
    }

    private Entry last() {
        if (entries.isEmpty()) {
            throw new IllegalStateException("add a work request first");
        }
        return entries.getLast();
    }

    @Override
    public SendWorkRequest clear() {
        entries.clear();
        failedIndex = -1;
        return this;
    }

    @Override
    public SendWorkRequest add(final long wrId, final int opcode, final int flags) {
        if (entries.size() == capacity) {
            throw new IllegalStateException("the request holds " + capacity + " work requests");
        }
        entries.add(new Entry(wrId, opcode, flags));
        return this;
    }

    @Override
    public SendWorkRequest sge(final long address, final int length, final int lkey) {
        last().sges.add(new long[] {address, length, lkey});
        return this;
    }

    @Override
    public SendWorkRequest remote(final long address, final int rkey) {
        final Entry entry = last();
        entry.remoteAddress = address;
        entry.rkey = rkey;
        entry.hasRemote = true;
        return this;
    }

    @Override
    public SendWorkRequest atomic(final long compareAdd, final long swap) {
        final Entry entry = last();
        entry.compareAdd = compareAdd;
        entry.swap = swap;
        entry.hasAtomic = true;
        return this;
    }

    @Override
    public SendWorkRequest immediate(final int immediate) {
        final Entry entry = last();
        entry.immediate = immediate;
        entry.hasImmediate = true;
        return this;
    }

    @Override
    public int count() {
        return entries.size();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int failedIndex() {
        return failedIndex;
    }

    /** Writes {@code batch} into the provider's own request. */
    static void copy(final List<Entry> batch, final SendWorkRequest into) {
        into.clear();
        for (final Entry entry : batch) {
            into.add(entry.wrId, entry.opcode, entry.flags);
            for (final long[] sge : entry.sges) {
                into.sge(sge[0], (int) sge[1], (int) sge[2]);
            }
            if (entry.hasRemote) {
                into.remote(entry.remoteAddress, entry.rkey);
            }
            if (entry.hasAtomic) {
                into.atomic(entry.compareAdd, entry.swap);
            }
            if (entry.hasImmediate) {
                into.immediate(entry.immediate);
            }
        }
    }
}
