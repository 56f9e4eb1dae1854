package io.rdmareactive.fault;

import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A queue pair whose posts pass through the fault: a post refused, or the victim's writes held back (its credit
 * words first) and posted, in order, a while later.
 */
final class FaultyQueuePair implements QueuePair {

    /** A credit, grant or goodbye word is a checked word of 16 bytes, written with a plain RDMA WRITE. */
    private static final int WORD_WRITE_LENGTH = 16;

    private final QueuePair delegate;
    private final FaultInjector injector;
    private final Map<RecordedSendRequest, SendWorkRequest> real = new IdentityHashMap<>();
    private final ArrayDeque<List<RecordedSendRequest.Entry>> withheld = new ArrayDeque<>();
    private SendWorkRequest releaseRequest;
    private long sendPosts;
    private long receivePosts;
    private long withholdUntilTick = -1;
    private volatile String forcedError;

    FaultyQueuePair(final QueuePair delegate, final FaultInjector injector) {
        this.delegate = delegate;
        this.injector = injector;
    }

    QueuePair delegate() {
        return delegate;
    }

    @Override
    public int number() {
        return delegate.number();
    }

    @Override
    public QueuePairState state() {
        return forcedError != null ? QueuePairState.ERROR : delegate.state();
    }

    @Override
    public String errorReason() {
        return forcedError != null ? forcedError : delegate.errorReason();
    }

    @Override
    public byte[] peerPrivateData() {
        return delegate.peerPrivateData();
    }

    @Override
    public String peerDescription() {
        return delegate.peerDescription();
    }

    @Override
    public byte[] localEndpoint() {
        return delegate.localEndpoint();
    }

    @Override
    public byte[] peerEndpoint() {
        return delegate.peerEndpoint();
    }

    @Override
    public SendWorkRequest newSendRequest(final int capacity) {
        final RecordedSendRequest recorded = new RecordedSendRequest(capacity);
        real.put(recorded, delegate.newSendRequest(capacity));
        return recorded;
    }

    @Override
    public ReceiveWorkRequest newReceiveRequest(final int capacity) {
        return new RecordedReceiveRequest(delegate.newReceiveRequest(capacity));
    }

    @Override
    public int postSend(final SendWorkRequest request) {
        final RecordedSendRequest recorded = (RecordedSendRequest) request;
        sendPosts++;
        if (injector.fault() == Fault.FAIL_POST_SEND && sendPosts == injector.trigger()
            && injector.injected() == null) {
            injector.struck("refused send post " + sendPosts + " with EINVAL");
            recorded.failedIndex = 0;
            return PostStatus.INVALID;
        }
        if (injector.fault() == Fault.WITHHOLD_CREDIT && injector.injected() == null && sendPosts >= injector.trigger()
            && writesAWord(recorded)) {
            injector.struck("withheld the victim's credit and grant writes, and all its writes after them, for "
                + injector.window() + " polls from send post " + sendPosts);
            withholdUntilTick = -2; // set by the device's next tick
        }
        if (withholdUntilTick != -1 || !withheld.isEmpty()) {
            withheld.add(List.copyOf(recorded.entries()));
            return PostStatus.OK;
        }
        final SendWorkRequest into = real.get(recorded);
        RecordedSendRequest.copy(recorded.entries(), into);
        final int status = delegate.postSend(into);
        recorded.failedIndex = into.failedIndex();
        return status;
    }

    private static boolean writesAWord(final RecordedSendRequest request) {
        for (final RecordedSendRequest.Entry entry : request.entries()) {
            if (entry.opcode == WorkRequestOpcode.RDMA_WRITE && entry.length() == WORD_WRITE_LENGTH) {
                return true;
            }
        }
        return false;
    }

    /** The driver's poll: a withholding starts its clock, or ends and posts what it held, in order. */
    void tick(final long tick) {
        if (withholdUntilTick == -2) {
            withholdUntilTick = tick + injector.window();
        } else if (withholdUntilTick >= 0 && tick >= withholdUntilTick) {
            withholdUntilTick = -1;
            while (!withheld.isEmpty()) {
                final List<RecordedSendRequest.Entry> batch = withheld.poll();
                if (releaseRequest == null || releaseRequest.capacity() < batch.size()) {
                    releaseRequest = delegate.newSendRequest(Math.max(batch.size(), 64));
                }
                RecordedSendRequest.copy(batch, releaseRequest);
                if (delegate.postSend(releaseRequest) != PostStatus.OK) {
                    withheld.clear(); // the queue pair failed meanwhile: its error tells the rest
                }
            }
        }
    }

    @Override
    public int postReceive(final ReceiveWorkRequest request) {
        final RecordedReceiveRequest recorded = (RecordedReceiveRequest) request;
        receivePosts++;
        if (injector.fault() == Fault.FAIL_POST_RECEIVE && receivePosts == injector.trigger()
            && injector.injected() == null) {
            injector.struck("refused receive post " + receivePosts + " with EINVAL");
            recorded.failedIndex = 0;
            return PostStatus.INVALID;
        }
        return delegate.postReceive(recorded.delegate);
    }

    /** Puts the queue pair into the error state, as an adapter would: its work is flushed, the peer told. */
    void forceError(final String reason) {
        forcedError = reason;
        delegate.disconnect();
    }

    @Override
    public void disconnect() {
        delegate.disconnect();
    }

    @Override
    public void close() {
        withheld.clear();
        delegate.close();
    }
}
