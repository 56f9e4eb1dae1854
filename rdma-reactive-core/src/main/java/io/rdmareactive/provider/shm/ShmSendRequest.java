package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.SendWorkRequest;

/**
 * A reusable batch of send requests: the ids and gather entries of {@link ShmWorkBatch}, and the send fields in
 * parallel arrays; nothing is allocated after construction.
 */
final class ShmSendRequest extends ShmWorkBatch implements SendWorkRequest {

    final int[] opcode;
    final int[] flags;
    final int[] immediate;
    final long[] remoteAddress;
    final int[] rkey;
    final long[] compareAdd;
    final long[] swap;

    ShmSendRequest(final int capacity, final int maxSge) {
        super("send", "request", capacity, maxSge);
        opcode = new int[capacity];
        flags = new int[capacity];
        immediate = new int[capacity];
        remoteAddress = new long[capacity];
        rkey = new int[capacity];
        compareAdd = new long[capacity];
        swap = new long[capacity];
    }

    @Override
    public SendWorkRequest clear() {
        reset();
        return this;
    }

    @Override
    public SendWorkRequest add(final long id, final int op, final int sendFlags) {
        final int i = append(id);
        opcode[i] = op;
        flags[i] = sendFlags;
        immediate[i] = 0;
        remoteAddress[i] = 0;
        rkey[i] = 0;
        compareAdd[i] = 0;
        swap[i] = 0;
        return this;
    }

    @Override
    public SendWorkRequest sge(final long address, final int length, final int lkey) {
        addSge(address, length, lkey);
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
}
