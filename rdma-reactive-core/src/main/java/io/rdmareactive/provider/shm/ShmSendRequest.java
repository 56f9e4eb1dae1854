package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.SendWorkRequest;

/** A reusable batch of send requests, held in parallel arrays; nothing is allocated after construction. */
final class ShmSendRequest implements SendWorkRequest {

    final int capacity;
    final int maxSge;
    final long[] wrId;
    final int[] opcode;
    final int[] flags;
    final int[] immediate;
    final long[] remoteAddress;
    final int[] rkey;
    final long[] compareAdd;
    final long[] swap;
    final int[] sgeCount;
    final boolean[] sgeOverflow;
    final long[] sgeAddress;
    final int[] sgeLength;
    final int[] sgeLkey;
    int count;
    int failedIndex = -1;

    ShmSendRequest(final int capacity, final int maxSge) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a send batch needs a positive capacity: " + capacity);
        }
        this.capacity = capacity;
        this.maxSge = maxSge;
        wrId = new long[capacity];
        opcode = new int[capacity];
        flags = new int[capacity];
        immediate = new int[capacity];
        remoteAddress = new long[capacity];
        rkey = new int[capacity];
        compareAdd = new long[capacity];
        swap = new long[capacity];
        sgeCount = new int[capacity];
        sgeOverflow = new boolean[capacity];
        sgeAddress = new long[capacity * maxSge];
        sgeLength = new int[capacity * maxSge];
        sgeLkey = new int[capacity * maxSge];
    }

    @Override
    public SendWorkRequest clear() {
        count = 0;
        failedIndex = -1;
        return this;
    }

    @Override
    public SendWorkRequest add(final long id, final int op, final int sendFlags) {
        if (count == capacity) {
            throw new IllegalStateException("the send batch is full (" + capacity + " requests); post it first");
        }
        final int i = count++;
        wrId[i] = id;
        opcode[i] = op;
        flags[i] = sendFlags;
        immediate[i] = 0;
        remoteAddress[i] = 0;
        rkey[i] = 0;
        compareAdd[i] = 0;
        swap[i] = 0;
        sgeCount[i] = 0;
        sgeOverflow[i] = false;
        return this;
    }

    private int current() {
        if (count == 0) {
            throw new IllegalStateException("add(...) a request before describing it");
        }
        return count - 1;
    }

    @Override
    public SendWorkRequest sge(final long address, final int length, final int lkey) {
        final int i = current();
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
    public SendWorkRequest remote(final long address, final int key) {
        final int i = current();
        remoteAddress[i] = address;
        rkey[i] = key;
        return this;
    }

    @Override
    public SendWorkRequest atomic(final long compare, final long replacement) {
        final int i = current();
        compareAdd[i] = compare;
        swap[i] = replacement;
        return this;
    }

    @Override
    public SendWorkRequest immediate(final int value) {
        immediate[current()] = value;
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
