package io.rdmareactive.fault;

import io.rdmareactive.spi.ReceiveWorkRequest;

/** Receive work requests handed straight to the provider's own request, so that the wrapper can refuse a post. */
final class RecordedReceiveRequest implements ReceiveWorkRequest {

    final ReceiveWorkRequest delegate;
    int failedIndex = -1;

    RecordedReceiveRequest(final ReceiveWorkRequest delegate) {
        this.delegate = delegate;
    }

    @Override
    public ReceiveWorkRequest clear() {
        delegate.clear();
        failedIndex = -1;
        return this;
    }

    @Override
    public ReceiveWorkRequest add(final long wrId) {
        delegate.add(wrId);
        return this;
    }

    @Override
    public ReceiveWorkRequest sge(final long address, final int length, final int lkey) {
        delegate.sge(address, length, lkey);
        return this;
    }

    @Override
    public int count() {
        return delegate.count();
    }

    @Override
    public int capacity() {
        return delegate.capacity();
    }

    @Override
    public int failedIndex() {
        return failedIndex >= 0 ? failedIndex : delegate.failedIndex();
    }
}
