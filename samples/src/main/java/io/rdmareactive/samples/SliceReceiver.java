package io.rdmareactive.samples;

import java.lang.foreign.MemorySegment;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Receives the left neighbour's slices on the thread that delivers them (the connection's event loop: views of the
 * receive ring for rdma-reactive, frames for Reactor Netty's TCP), and stores each straight from there into the array
 * its {@link #expect} named (then adds the addend there): the one copy a received float needs. It asks for one
 * message per slice expected, so the left neighbour may send only what has a place to go (the transport's prefetch
 * lets it send that much ahead; over TCP, Reactor Netty stops reading the socket).
 *
 * @param <T> what the transport delivers a slice as
 */
public final class SliceReceiver<T> extends BaseSubscriber<T> {

    private final LinkWaiter waiter;
    private final Function<? super T, MemorySegment> bytes;
    private final Queue<RingSlot> expected = new ConcurrentLinkedQueue<>();
    private final Sinks.Empty<Void> subscribed = Sinks.empty();
    private final Sinks.Empty<Void> ended = Sinks.empty();
    private long asked;
    private volatile long stored;
    private volatile Throwable failure;
    private volatile boolean completed;

    /**
     * @param waiter woken when a slice was stored, or the stream ended
     * @param bytes  the bytes of a delivered slice, valid while it is being stored
     */
    public SliceReceiver(final LinkWaiter waiter, final Function<? super T, MemorySegment> bytes) {
        this.waiter = waiter;
        this.bytes = bytes;
    }

    /** @return completes once the stream is subscribed to */
    public Mono<Void> whenSubscribed() {
        return subscribed.asMono();
    }

    /** @return completes once the stream ended, either way; the server handler's end, which closes the connection */
    public Mono<Void> whenEnded() {
        return ended.asMono();
    }

    /** @see RingLink#expect */
    public long expect(final float[] target, final float[] addend, final int offset, final int count) {
        expected.add(new RingSlot(target, addend, offset, count));
        request(1);
        return ++asked;
    }

    /** @return the slices stored so far */
    public long stored() {
        return stored;
    }

    /** @return what ended the stream early (an error, a slice of the wrong length, an end before the last slice) */
    public Throwable failure() {
        return failure;
    }

    /** @return whether the left neighbour ended its stream */
    public boolean completed() {
        return completed;
    }

    @Override
    protected void hookOnSubscribe(final Subscription subscription) {
        subscribed.tryEmitEmpty();
    }

    @Override
    protected void hookOnNext(final T slice) {
        final RingSlot slot = expected.poll();
        try {
            if (slot == null) {
                throw new IllegalStateException("the left neighbour sent a slice that was not expected");
            }
            slot.store(bytes.apply(slice));
        } catch (final RuntimeException ex) {
            failure = ex;
            cancel();
            end();
            return;
        }
        stored = stored + 1; // the delivering thread alone writes it
        waiter.wake();
    }

    @Override
    protected void hookOnComplete() {
        if (!expected.isEmpty()) {
            failure = new IllegalStateException("the left neighbour ended its stream with slices still expected");
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
