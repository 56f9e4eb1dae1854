package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.ReceiveWorkRequest;

/** A reusable batch of receives, held in parallel arrays; nothing is allocated after construction. */
final class ShmReceiveRequest implements ReceiveWorkRequest {

    final int capacity;
    final int maxSge;
    final long[] wrId;
    final int[] sgeCount;
    final boolean[] sgeOverflow;
    final long[] sgeAddress;
    final int[] sgeLength;
    final int[] sgeLkey;
    int count;
    int failedIndex = -1;

    ShmReceiveRequest(final int capacity, final int maxSge) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a receive batch needs a positive capacity: " + capacity);
        }
        this.capacity = capacity;
        this.maxSge = maxSge;
        wrId = new long[capacity];
        sgeCount = new int[capacity];
        sgeOverflow = new boolean[capacity];
        sgeAddress = new long[capacity * maxSge];
        sgeLength = new int[capacity * maxSge];
        sgeLkey = new int[capacity * maxSge];
    }

    @Override
    public ReceiveWorkRequest clear() {
        count = 0;
        failedIndex = -1;
        return this;
    }

    @Override
    public ReceiveWorkRequest add(final long id) {
        if (count == capacity) {
            throw new IllegalStateException("the receive batch is full (" + capacity + " receives); post it first");
        }
        final int i = count++;
        wrId[i] = id;
        sgeCount[i] = 0;
        sgeOverflow[i] = false;
        return this;
    }

    @Override
    public ReceiveWorkRequest sge(final long address, final int length, final int lkey) {
        if (count == 0) {
            throw new IllegalStateException("add(...) a receive before describing it");
        }
        final int i = count - 1;
        final int k = sgeCount[i];
        if (k == maxSge) {
            sgeOverflow[i] = true;
            return this;
        }
        sgeAddress[i * maxSge + k] = address;
        sgeLength[i * maxSge + k] = length;
        sgeLkey[i * maxSge + k] = lkey;
        sgeCount[i] = k + 1;
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
}
