package io.rdmareactive.samples;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.agrona.DirectBuffer;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Receives the left neighbour's slices as views of the receive ring, on the connection's event loop, and stores each
 * straight from the ring into the array its {@link #expect} named (then adds the addend there): the one copy a
 * received float needs. It asks the stream for one message per slice expected, so the left neighbour may send only
 * what has a place to go; the wire's prefetch lets it send that much ahead.
 */
final class SliceReceiver extends BaseSubscriber<DirectBuffer> {

    /** Where a slice goes. */
    private record Expected(float[] target, float[] addend, int offset, int count) {
    }

    private final LinkWaiter waiter;
    private final Queue<Expected> expected = new ConcurrentLinkedQueue<>();
    private final Sinks.Empty<Void> subscribed = Sinks.empty();
    private final Sinks.Empty<Void> ended = Sinks.empty();
    private long asked;
    private volatile long stored;
    private volatile Throwable failure;
    private volatile boolean completed;

    /** @param waiter woken when a slice was stored, or the stream ended */
    SliceReceiver(final LinkWaiter waiter) {
        this.waiter = waiter;
    }

    /** @return completes once the stream is subscribed to */
    Mono<Void> whenSubscribed() {
        return subscribed.asMono();
    }

    /** @return completes once the stream ended, either way; the server handler's end, which closes the connection */
    Mono<Void> whenEnded() {
        return ended.asMono();
    }

    /** @see RingLink#expect */
    long expect(final float[] target, final float[] addend, final int offset, final int count) {
        expected.add(new Expected(target, addend, offset, count));
        request(1);
        return ++asked;
    }

    /** @return the slices stored so far */
    long stored() {
        return stored;
    }

    /** @return what ended the stream early (an error, a slice of the wrong length, an end before the last slice) */
    Throwable failure() {
        return failure;
    }

    /** @return whether the left neighbour ended its stream */
    boolean completed() {
        return completed;
    }

    @Override
    protected void hookOnSubscribe(final Subscription subscription) {
        subscribed.tryEmitEmpty();
    }

    @Override
    protected void hookOnNext(final DirectBuffer view) {
        final Expected slice = expected.poll();
        if (slice == null || view.capacity() != slice.count() * Float.BYTES) {
            failure = new IllegalStateException("the left neighbour sent " + view.capacity() + " bytes where "
                + (slice == null ? "nothing" : slice.count() * Float.BYTES + " bytes") + " were expected");
            cancel();
            end();
            return;
        }
        final float[] target = slice.target();
        final float[] addend = slice.addend();
        final int offset = slice.offset();
        FloatCopies.fromBuffer(view, 0, target, offset, slice.count());
        if (addend != null) {
            // a second pass over what is now in the cache; the JIT makes a loop over two arrays vector additions
            for (int i = offset, end = offset + slice.count(); i < end; i++) {
                target[i] += addend[i];
            }
        }
        stored = stored + 1; // this loop alone writes it
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
