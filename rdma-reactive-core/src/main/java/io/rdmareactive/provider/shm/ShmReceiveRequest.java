package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.ReceiveWorkRequest;

/**
 * A reusable batch of receives: ids and scatter entries only, all in {@link ShmWorkBatch}; nothing is allocated after
 * construction.
 */
final class ShmReceiveRequest extends ShmWorkBatch implements ReceiveWorkRequest {

    ShmReceiveRequest(final int capacity, final int maxSge) {
        super("receive", "receive", capacity, maxSge);
    }

    @Override
    public ReceiveWorkRequest clear() {
        reset();
        return this;
    }

    @Override
    public ReceiveWorkRequest add(final long id) {
        append(id);
        return this;
    }

    @Override
    public ReceiveWorkRequest sge(final long address, final int length, final int lkey) {
        addSge(address, length, lkey);
        return this;
    }
}
