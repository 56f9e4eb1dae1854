package io.rdmareactive.spi.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendWorkRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One side of a connection under test: a device, a send and a receive completion queue, the connected queue pair
 * (once there is one) with a reusable send and receive batch, and every connection event the device reported.
 */
final class Endpoint {

    /** Completions each completion queue holds: far more than any test leaves outstanding. */
    static final int CQ_CAPACITY = 1024;
    /** Requests a batch holds. */
    static final int BATCH = 64;

    final String role;
    final RdmaDevice device;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    /** Every event {@link #device} handed out so far, in order, whichever queue pair it was for. */
    final List<ConnectionEvent> events = new ArrayList<>();

    private QueuePair qp;
    private SendWorkRequest sends;
    private ReceiveWorkRequest receives;

    Endpoint(final String role, final RdmaDevice device) {
        this.role = role;
        this.device = device;
        final int capacity = Math.min(CQ_CAPACITY, device.limits().maxCompletionQueueCapacity());
        this.sendCq = device.createCompletionQueue(capacity);
        this.recvCq = device.createCompletionQueue(capacity);
    }

    /** @return queue pair options for this side's completion queues, with the suite's defaults */
    QueuePairOptions.Builder options() {
        final int sge = Math.min(4, device.limits().maxSge());
        return QueuePairOptions.builder(sendCq, recvCq)
            .sendDepth(64)
            .receiveDepth(64)
            .maxSendSge(sge)
            .maxReceiveSge(sge)
            .maxInlineData(Math.min(64, device.limits().maxInlineData()))
            .signalAll(true)
            .rnrRetries(0);
    }

    void attach(final QueuePair queuePair) {
        this.qp = queuePair;
        this.sends = queuePair.newSendRequest(BATCH);
        this.receives = queuePair.newReceiveRequest(BATCH);
    }

    QueuePair qp() {
        return qp;
    }

    /** @return the send batch as the last post left it (for {@link SendWorkRequest#failedIndex()}) */
    SendWorkRequest sends() {
        return sends;
    }

    /** @return the receive batch as the last post left it */
    ReceiveWorkRequest receives() {
        return receives;
    }

    MemoryRegion region(final long length, final int access) {
        return device.allocateRegion(length, access);
    }

    /** Clears the send batch, lets {@code fill} fill it, posts it. @return the {@link PostStatus} */
    int trySend(final Consumer<SendWorkRequest> fill) {
        sends.clear();
        fill.accept(sends);
        return qp.postSend(sends);
    }

    /** As {@link #trySend}, asserting that everything was posted. */
    void send(final Consumer<SendWorkRequest> fill) {
        final int status = trySend(fill);
        assertThat(status).as("%s: postSend returned %s, failedIndex %d", role, PostStatus.name(status),
            sends.failedIndex()).isEqualTo(PostStatus.OK);
    }

    int tryReceive(final Consumer<ReceiveWorkRequest> fill) {
        receives.clear();
        fill.accept(receives);
        return qp.postReceive(receives);
    }

    void receive(final Consumer<ReceiveWorkRequest> fill) {
        final int status = tryReceive(fill);
        assertThat(status).as("%s: postReceive returned %s, failedIndex %d", role, PostStatus.name(status),
            receives.failedIndex()).isEqualTo(PostStatus.OK);
    }

    /** Posts one receive of {@code length} bytes at {@code offset} of the region. */
    void receive(final long wrId, final MemoryRegion region, final long offset, final int length) {
        receive(r -> r.add(wrId).sge(region.address() + offset, length, region.lkey()));
    }

    /** Posts one receive with no scatter entry (it absorbs an RDMA WRITE WITH IMMEDIATE). */
    void receiveNothing(final long wrId) {
        receive(r -> r.add(wrId));
    }

    List<CompletionRecord> awaitSendCompletions(final int count) {
        return Completions.await(sendCq, count, role + " send queue");
    }

    List<CompletionRecord> awaitReceiveCompletions(final int count) {
        return Completions.await(recvCq, count, role + " receive queue");
    }

    CompletionRecord awaitSendCompletion() {
        return awaitSendCompletions(1).getFirst();
    }

    CompletionRecord awaitReceiveCompletion() {
        return awaitReceiveCompletions(1).getFirst();
    }

    /** Polls the device's events into {@link #events}. */
    void pollEvents() {
        device.pollEvents(events::add, 16);
    }

    /**
     * @return the first event the device reported for this side's queue pair, waiting for one
     */
    ConnectionEvent awaitFirstEvent() {
        return awaitFirstEvent(Await.BOUND);
    }

    ConnectionEvent awaitFirstEvent(final java.time.Duration bound) {
        Await.until(bound, () -> role + " device to report an event for queue pair " + qp.number() + "; events so far: "
            + events, () -> {
                pollEvents();
                return firstEvent() != null;
            });
        return firstEvent();
    }

    /** @return the first event for this side's queue pair polled so far, or null */
    ConnectionEvent firstEvent() {
        for (final ConnectionEvent event : events) {
            if (isOurs(event)) {
                return event;
            }
        }
        return null;
    }

    /** @return true if the event is about this side's queue pair (the same object, or one with its number) */
    boolean isOurs(final ConnectionEvent event) {
        return event.queuePair() == qp || (event.queuePair() != null && event.queuePair().number() == qp.number());
    }

    void awaitState(final QueuePairState state) {
        Await.until(() -> role + " queue pair " + qp.number() + " to be " + state + " (it is " + qp.state()
            + ", error reason: " + qp.errorReason() + ")", () -> qp.state() == state);
    }

    @Override
    public String toString() {
        return role;
    }
}
