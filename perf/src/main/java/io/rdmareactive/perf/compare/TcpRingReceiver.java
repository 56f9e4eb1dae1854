package io.rdmareactive.perf.compare;

import io.netty.buffer.ByteBuf;
import java.lang.foreign.MemorySegment;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The receiving side of a {@link TcpRingLink}: the left neighbour's frames (length prefix already stripped) as
 * Reactor Netty delivers them on its event loop, each stored straight from the frame into the place its
 * {@code expect} named. It asks for one frame per slice expected, so Reactor Netty stops reading the socket (and TCP
 * pushes back on the left neighbour) while no slice is expected.
 */
final class TcpRingReceiver extends BaseSubscriber<ByteBuf> {

    private final RankWaiter waiter;
    private final Queue<RingSlot> expected = new ConcurrentLinkedQueue<>();
    private final Sinks.Empty<Void> subscribed = Sinks.empty();
    private final Sinks.Empty<Void> ended = Sinks.empty();
    private long asked;
    private volatile long stored;
    private volatile Throwable failure;
    private volatile boolean completed;

    /** @param waiter woken when a slice was stored, or the stream ended */
    TcpRingReceiver(final RankWaiter waiter) {
        this.waiter = waiter;
    }

    /** @return completes once the left neighbour's connection is subscribed to */
    Mono<Void> whenSubscribed() {
        return subscribed.asMono();
    }

    /** @return completes once the stream ended, either way: the server handler's end */
    Mono<Void> whenEnded() {
        return ended.asMono();
    }

    /** @see io.rdmareactive.samples.RingLink#expect */
    long expect(final float[] target, final float[] addend, final int offset, final int count) {
        expected.add(new RingSlot(target, addend, offset, count));
        request(1);
        return ++asked;
    }

    /** @return the slices stored so far */
    long stored() {
        return stored;
    }

    /** @return what ended the stream early, or null */
    Throwable failure() {
        return failure;
    }

    /** @return whether the left neighbour closed its connection */
    boolean completed() {
        return completed;
    }

    @Override
    protected void hookOnSubscribe(final Subscription subscription) {
        subscribed.tryEmitEmpty();
    }

    @Override
    protected void hookOnNext(final ByteBuf frame) {
        final RingSlot slot = expected.poll();
        try {
            if (slot == null) {
                throw new IllegalStateException("the left neighbour sent a slice that was not expected");
            }
            slot.store(MemorySegment.ofBuffer(frame.nioBuffer(frame.readerIndex(), frame.readableBytes())));
        } catch (final RuntimeException ex) {
            failure = ex;
            cancel();
            end();
            return;
        }
        stored = stored + 1; // this event loop alone writes it
        waiter.wake();
    }

    @Override
    protected void hookOnComplete() {
        if (!expected.isEmpty()) {
            failure = new IllegalStateException("the left neighbour closed its connection with slices still expected");
        }
        completed = true;
        end();
    }

    @Override
    protected void hookOnError(final Throwable error) {
        failure = error;
        end();
    }

    private void end() {
        ended.tryEmitEmpty();
        waiter.wake();
    }
}
